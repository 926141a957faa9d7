package hostside.schema;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import hostside.core.Json;

/**
 * Writes docs/schema/*.schema.json anew from the records (SchemaTest fails while they are stale):
 * {@code ./mvnw -q -o test-compile org.codehaus.mojo:exec-maven-plugin:3.6.4:java -Dexec.mainClass=hostside.schema.WriteSchemas -Dexec.classpathScope=test}
 */
public final class WriteSchemas {
    private WriteSchemas() {}

    static final Path DIR = Path.of("docs/schema");

    /** Each file's name and text, as they should be. */
    static Map<String, String> files() {
        Map<String, String> out = new LinkedHashMap<>();
        for (Documents.Doc d : Documents.ALL) out.put(d.file() + ".schema.json", Json.write(Documents.schema(d)));
        return out;
    }

    public static void main(String[] args) throws IOException {
        Files.createDirectories(DIR);
        for (var f : files().entrySet()) Files.writeString(DIR.resolve(f.getKey()), f.getValue());
        System.out.println("wrote " + files().size() + " schemas to " + DIR);
    }
}
