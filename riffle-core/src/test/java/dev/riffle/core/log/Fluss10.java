package dev.riffle.core.log;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.tools.JavaCompiler;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/**
 * The Fluss 1.0.0 client library, isolated from the 0.9.1 one on the test classpath.
 *
 * <p>Maven copies the 1.0.0 jar to {@code target/fluss-1.0} (the riffle-core POM says why it is not
 * a dependency). {@code fluss10/Fluss10BatchWriterImpl} is compiled here against that jar alone —
 * the module's test compilation excludes it, since it would see 0.9.1 — and loaded by a class loader
 * whose parent is the platform loader: it finds every Fluss class (and everything the shaded jar
 * bundles) in the 1.0.0 jar, and only {@link Fluss10BatchWriter} and its nested types, which use
 * JDK types alone, come from the test class loader.
 */
final class Fluss10 {
    static final String JAR_PROPERTY = "riffle.test.fluss10.client.jar";
    static final String SOURCE_PROPERTY = "riffle.test.fluss10.writer.source";
    private static final String IMPL = "dev.riffle.core.log.fluss10.Fluss10BatchWriterImpl";

    private Fluss10() {}

    /** The writer, compiled and loaded once per JVM. */
    static Fluss10BatchWriter writer() {
        return Holder.WRITER;
    }

    static Path jar() {
        Path jar = Path.of(System.getProperty(JAR_PROPERTY, "target/fluss-1.0/fluss-client-1.0.0.jar"));
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("The Fluss 1.0.0 client jar is not at " + jar.toAbsolutePath()
                    + "; `mvn -pl riffle-core generate-test-resources` copies it there from Maven Central");
        }
        return jar;
    }

    private static final class Holder {
        static final Fluss10BatchWriter WRITER = load();
    }

    private static Fluss10BatchWriter load() {
        Path jar = jar();
        Path source = Path.of(System.getProperty(SOURCE_PROPERTY,
                "src/test/java/dev/riffle/core/log/fluss10/Fluss10BatchWriterImpl.java"));
        Path classes = jar.resolveSibling("writer-classes");
        compile(source, jar, classes);
        try {
            ClassLoader loader = new IsolatingClassLoader(new URL[] {classes.toUri().toURL(), jar.toUri().toURL()},
                    Fluss10.class.getClassLoader());
            return (Fluss10BatchWriter) loader.loadClass(IMPL).getConstructor().newInstance();
        } catch (MalformedURLException | ReflectiveOperationException e) {
            throw new IllegalStateException("Cannot load " + IMPL + " beside " + jar, e);
        }
    }

    private static void compile(Path source, Path jar, Path classes) {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        if (javac == null) {
            throw new IllegalStateException("The tests need a JDK: no Java compiler in " + System.getProperty("java.home"));
        }
        Path sharedTypes = testClasses();
        try {
            Files.createDirectories(classes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        StringWriter messages = new StringWriter();
        try (StandardJavaFileManager files = javac.getStandardFileManager(null, null, null)) {
            List<String> options = List.of("--release", "17", "-proc:none", "-nowarn", "-d", classes.toString(),
                    "-classpath", jar + java.io.File.pathSeparator + sharedTypes);
            boolean compiled = javac.getTask(messages, files, null, options, null,
                    files.getJavaFileObjects(source.toFile())).call();
            if (!compiled) {
                throw new IllegalStateException("Cannot compile " + source + " against " + jar + ":\n" + messages);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Where {@link Fluss10BatchWriter} was compiled to, so the writer can implement it. */
    private static Path testClasses() {
        try {
            return Path.of(Fluss10BatchWriter.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Finds classes in its own URLs, then the JDK's; only the shared interface comes from the test
     * class loader. A child-first loader over the test classpath would still let 0.9.1 classes
     * leak in wherever the 1.0 jar lacks one.
     */
    private static final class IsolatingClassLoader extends URLClassLoader {
        private final ClassLoader shared;

        IsolatingClassLoader(URL[] urls, ClassLoader shared) {
            super("fluss-1.0.0", urls, ClassLoader.getPlatformClassLoader());
            this.shared = shared;
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (name.equals(Fluss10BatchWriter.class.getName())
                    || name.startsWith(Fluss10BatchWriter.class.getName() + "$")) {
                return shared.loadClass(name);
            }
            return super.loadClass(name, resolve);
        }
    }
}
