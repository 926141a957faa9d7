package hostside.bundle;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;

/**
 * The bundle's runtime holds only the modules hostside needs ({@link Jlink#MODULES}). A class of
 * hostside's that starts using another module (java.net.http, jdk.httpserver) must add it there,
 * and a library that comes to need one beyond those known to be optional must be looked at: a
 * module missing from the runtime fails only when the class that needs it loads, on a node.
 */
class BundleModulesTest {
    /**
     * What the libraries reference but hostside never reaches: Jackson's optional java.beans,
     * java.sql and javax.xml types (each looked for before use), commons-compress's pack200
     * (java.desktop, java.logging) and commons-lang3's concurrent package (java.beans).
     */
    static final Set<String> OPTIONAL = Set.of("java.desktop", "java.sql", "java.xml", "java.logging");

    @Test
    void hostsidesOwnClassesNeedNoModuleBeyondTheBundles() {
        Set<String> own = new TreeSet<>();
        for (String[] d : TestJars.dependencies()) if (d[0].equals("classes") && !d[1].endsWith(".jar")) own.add(d[1]);
        assertThat(own).contains("java.base").isSubsetOf(Jlink.MODULES);
    }

    @Test
    void theLibrariesNeedNoModuleBeyondTheBundlesButTheKnownOptionalOnes() {
        Set<String> libraries = new TreeSet<>();
        for (String[] d : TestJars.dependencies()) if (!d[0].equals("classes") && !d[1].endsWith(".jar")) libraries.add(d[1]);
        assertThat(libraries).as("modules the libraries reference").isNotEmpty();
        Set<String> allowed = new TreeSet<>(Jlink.MODULES);
        allowed.addAll(OPTIONAL);
        assertThat(libraries).isSubsetOf(allowed);
        // the jars they come from: what the bundle's jar holds
        assertThat(TestJars.dependencies().stream().map(d -> d[1]).filter(t -> t.endsWith(".jar")).map(t -> t.replaceAll(".*/", "")).toList())
                .anyMatch(j -> j.startsWith("picocli-")).anyMatch(j -> j.startsWith("jackson-databind-")).anyMatch(j -> j.startsWith("commons-compress-"))
                .noneMatch(j -> j.startsWith("junit-")).noneMatch(j -> j.startsWith("selenium-"));
    }
}
