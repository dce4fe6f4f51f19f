package dev.lanes.spring;

import dev.lanes.Lanes;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.BoundPropertiesTrackingBindHandler;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.origin.Origin;
import org.springframework.boot.origin.PropertySourceOrigin;
import org.springframework.core.env.ConfigurableEnvironment;

/**
 * The databases of one Spring test context: a temporary directory of the context's own. The
 * starter opens there each database whose path comes from the application's configuration
 * ({@code application.properties} or YAML, a profile, the environment, a {@code
 * @TestPropertySource} file), so that the contexts Spring's test framework caches side by side,
 * test JVMs running at the same time and a running application never contend for one file, and
 * every context starts from an empty database, as with an embedded one. A path that the test
 * class sets itself ({@code @DynamicPropertySource}, {@code @SpringBootTest(properties = ...)},
 * {@code @TestPropertySource(properties = ...)}) is used as it is, and so is every path with
 * {@code lanes.test.fresh-databases=false}.
 *
 * <p>Registered in every test context by {@link LanesTestContextCustomizerFactory}, made when the
 * starter first asks for it; the directory is made at the first database placed in it and deleted,
 * with what it holds, after the context's Lanes runtimes closed.
 */
final class TestDatabaseDirectory implements AutoCloseable {
    static final String BEAN = "lanesTestDatabaseDirectory";

    /**
     * The property sources of Spring's test framework that hold what the test class sets: its
     * inlined properties and its {@code @DynamicPropertySource} values (named as such by Spring;
     * this class loads in applications without spring-test too, so it names them here).
     */
    private static final Set<String> TEST_CLASS_SOURCES = Set.of("Inlined Test Properties",
            "Dynamic Test Properties");

    private static final Logger log = LoggerFactory.getLogger(TestDatabaseDirectory.class);

    private final ConfigurableEnvironment environment;
    private final ConfigurableListableBeanFactory beans;
    private final ReentrantLock lock = new ReentrantLock();
    private Path directory; // guarded by lock

    TestDatabaseDirectory(ConfigurableEnvironment environment,
            ConfigurableListableBeanFactory beans) {
        this.environment = environment;
        this.beans = beans;
    }

    /**
     * Where the database configured by {@code property} opens: {@code configured} outside a test
     * context, else as {@link #place(String, Path, String)} says.
     */
    static Path place(BeanFactory beans, String property, Path configured, String relative) {
        TestDatabaseDirectory test = beans.getBeanProvider(TestDatabaseDirectory.class)
                .getIfAvailable();
        return test == null ? configured : test.place(property, configured, relative);
    }

    /**
     * Where the database configured by {@code property} opens in this test context: at {@code
     * relative} in the context's directory, unless the test class set the property itself or
     * {@code lanes.test.fresh-databases} is false.
     */
    Path place(String property, Path configured, String relative) {
        if (!beans.getBean(LanesProperties.class).test().freshDatabases()
                || setByTestClass(property)) {
            return configured;
        }
        return directory().resolve(relative);
    }

    /** Whether the test class itself set {@code property} (see the class comment). */
    private boolean setByTestClass(String property) {
        List<ConfigurationProperty> bound = new ArrayList<>();
        Binder.get(environment, new BoundPropertiesTrackingBindHandler(bound::add))
                .bind(ConfigurationPropertyName.adapt(property, '.'), Bindable.of(String.class));
        if (bound.isEmpty()) {
            return false;
        }
        Origin origin = bound.get(0).getOrigin();
        if (!(origin instanceof PropertySourceOrigin source)) {
            return false; // a file of the application's configuration tracks its own origin
        }
        return TEST_CLASS_SOURCES.contains(source.getPropertySource().getName());
    }

    private Path directory() {
        lock.lock();
        try {
            if (directory == null) {
                directory = Files.createTempDirectory("lanes-test-");
                // the runtimes close (and release their files) before the directory goes
                for (String runtime : beans.getBeanNamesForType(Lanes.class, true, false)) {
                    beans.registerDependentBean(BEAN, runtime);
                }
                log.debug("the databases of this test context open in {}", directory);
            }
            return directory;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot make a temporary directory for the test "
                    + "context's databases: " + e.getMessage(), e);
        } finally {
            lock.unlock();
        }
    }

    /** Deletes the directory and what it holds. */
    @Override
    public void close() {
        Path dir;
        lock.lock();
        try {
            dir = directory;
            directory = null;
        } finally {
            lock.unlock();
        }
        if (dir == null) {
            return;
        }
        try {
            Files.walkFileTree(dir, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs)
                        throws IOException {
                    Files.deleteIfExists(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path d, IOException e)
                        throws IOException {
                    Files.deleteIfExists(d);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            log.warn("could not delete the test context's database directory {}: {}", dir,
                    e.toString());
        }
    }
}
