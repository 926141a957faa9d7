package hostside;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * What a class depends on is read from its imports: a fully qualified {@code hostside.x.Y} in code
 * hides a dependency from anyone reading them (a review once counted 584 such names in 128 files).
 * A qualified name is kept only where the simple name is taken: by another import, a class of the
 * same package, a type the file declares, or java.lang. Comments may name a class in full.
 */
class ImportsTest {
    static final Pattern QUALIFIED = Pattern.compile("\\bhostside((?:\\.[a-z][a-z0-9_]*)+)\\.([A-Z][A-Za-z0-9_]*)");
    static final Pattern DECLARED = Pattern.compile("\\b(?:class|record|interface|enum)\\s+([A-Z][A-Za-z0-9_]*)");
    static final Pattern IMPORT = Pattern.compile("^import\\s+([\\w.]+)\\.(\\w+);", Pattern.MULTILINE);
    static final Pattern PACKAGE = Pattern.compile("^package\\s+([\\w.]+);", Pattern.MULTILINE);
    static final Set<String> JAVA_LANG = Set.of("AutoCloseable", "Boolean", "Byte", "Character", "Class", "Double", "Enum", "Error", "Exception",
            "Float", "Integer", "Iterable", "Long", "Math", "Module", "Number", "Object", "Override", "Package", "Process", "Record", "Runnable",
            "Runtime", "Short", "String", "StringBuilder", "System", "Thread", "Throwable", "Void");

    @Test
    void qualifiedNamesAppearOnlyWhereTheSimpleNameIsTaken() {
        Map<String, Set<String>> classesByPackage = new HashMap<>();
        List<Path> sources = new ArrayList<>();
        for (String base : List.of("src/main/java", "src/test/java")) {
            Path root = Path.of(base);
            for (Path p : javaFiles(root)) {
                sources.add(p);
                String pkg = root.relativize(p.getParent()).toString().replace('/', '.');
                classesByPackage.computeIfAbsent(pkg, k -> new HashSet<>()).add(p.getFileName().toString().replace(".java", ""));
            }
        }
        assertTrue(sources.size() > 500, "the sources were not found: " + sources.size());
        List<String> hidden = new ArrayList<>();
        for (Path p : sources) hidden.addAll(hiddenDependencies(p, read(p), classesByPackage));
        assertEquals(List.of(), hidden, "import these instead of naming them in full");
    }

    /** An import nothing in the file names claims a dependency the class does not have: the reader of the imports is misled either way. */
    @Test
    void everyImportIsUsed() {
        List<String> unused = new ArrayList<>();
        for (String base : List.of("src/main/java", "src/test/java")) {
            for (Path p : javaFiles(Path.of(base))) unused.addAll(unusedImports(p, read(p)));
        }
        assertEquals(List.of(), unused, "remove these imports");
    }

    @Test
    void theUnusedCheckSeesAnImportNamedOnlyByItself() {
        String file = """
                package hostside.doc;

                import java.util.List;
                import java.util.Map;
                import hostside.core.Units;

                /** Uses {@link Units}. */
                class Block {
                    List<String> a;
                }
                """;
        assertEquals(List.of("Block.java: java.util.Map"), unusedImports(Path.of("Block.java"), file));
    }

    static List<String> unusedImports(Path file, String text) {
        String body = text.lines().filter(l -> !l.startsWith("import ")).collect(Collectors.joining("\n"));
        List<String> unused = new ArrayList<>();
        for (Matcher m = Pattern.compile("^import (?:static )?([\\w.]+)\\.(\\w+);", Pattern.MULTILINE).matcher(text); m.find(); ) {
            if (!Pattern.compile("\\b" + Pattern.quote(m.group(2)) + "\\b").matcher(body).find()) unused.add(file + ": " + m.group(1) + "." + m.group(2));
        }
        return unused;
    }

    @Test
    void theCheckSeesAQualifiedNameInCodeAndNotInACommentOrAString() {
        Map<String, Set<String>> classes = Map.of("hostside.core", Set.of("Units", "Table"), "hostside.doc", Set.of("Block", "Table"));
        String file = """
                package hostside.doc;

                /** See {@link hostside.core.Units}. */
                class Block {
                    String a = hostside.core.Units.share(1, 2);
                    String b = "hostside.core.Units";
                    Object c = hostside.core.Table.of(); // taken: doc has a Table
                }
                """;
        List<String> found = hiddenDependencies(Path.of("Block.java"), file, classes);
        assertEquals(1, found.size(), found.toString());
        assertTrue(found.getFirst().contains("Block.java:5 hostside.core.Units"), found.getFirst());
    }

    static List<String> hiddenDependencies(Path file, String text, Map<String, Set<String>> classesByPackage) {
        Matcher pm = PACKAGE.matcher(text);
        String pkg = pm.find() ? pm.group(1) : "";
        Map<String, String> imported = new HashMap<>();
        for (Matcher m = IMPORT.matcher(text); m.find(); ) imported.put(m.group(2), m.group(1) + "." + m.group(2));
        Set<String> declared = new HashSet<>();
        for (Matcher m = DECLARED.matcher(text); m.find(); ) declared.add(m.group(1));
        Set<String> samePackage = classesByPackage.getOrDefault(pkg, Set.of());
        List<String> hidden = new ArrayList<>();
        String[] lines = text.split("\n", -1);
        boolean textBlock = false;
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            if (line.startsWith("import ") || line.startsWith("package ")) continue;
            if (count(line, "\"\"\"") % 2 == 1) {
                textBlock = !textBlock;
                continue;
            }
            if (textBlock) continue;
            String code = code(line);
            for (Matcher m = QUALIFIED.matcher(code); m.find(); ) {
                String qualifier = "hostside" + m.group(1);
                String simple = m.group(2);
                if (!classesByPackage.getOrDefault(qualifier, Set.of()).contains(simple)) continue;
                String full = qualifier + "." + simple;
                boolean taken = (imported.containsKey(simple) && !imported.get(simple).equals(full))
                        || (samePackage.contains(simple) && !qualifier.equals(pkg)) || declared.contains(simple) || JAVA_LANG.contains(simple);
                if (!taken) hidden.add(file + ":" + (i + 1) + " " + full);
            }
        }
        return hidden;
    }

    /** The line without its comment and with its string literals blanked. */
    static String code(String line) {
        String t = line.stripLeading();
        if (t.startsWith("*") || t.startsWith("/*") || t.startsWith("//")) return "";
        StringBuilder out = new StringBuilder();
        boolean string = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (string) {
                if (c == '\\') i++;
                else if (c == '"') string = false;
                out.append(' ');
                continue;
            }
            if (c == '"') {
                string = true;
                out.append(' ');
                continue;
            }
            if (c == '\'' && i + 2 < line.length()) { // a char literal: '"' or '\''
                int end = line.indexOf('\'', i + (line.charAt(i + 1) == '\\' ? 3 : 2));
                if (end > 0) {
                    out.append(" ".repeat(end - i + 1));
                    i = end;
                    continue;
                }
            }
            if (c == '/' && i + 1 < line.length() && (line.charAt(i + 1) == '/' || line.charAt(i + 1) == '*')) break;
            out.append(c);
        }
        return out.toString();
    }

    static int count(String s, String what) {
        int n = 0;
        for (int i = s.indexOf(what); i >= 0; i = s.indexOf(what, i + what.length())) n++;
        return n;
    }

    static List<Path> javaFiles(Path root) {
        try (Stream<Path> s = Files.walk(root)) {
            return s.filter(p -> p.toString().endsWith(".java")).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
