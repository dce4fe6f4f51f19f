package dev.lanes.spring.slices;

import dev.lanes.Database;
import java.sql.SQLException;
import javax.sql.DataSource;
import org.springframework.context.ApplicationContext;
import org.springframework.test.annotation.DirtiesContext.HierarchyMode;
import org.springframework.test.context.TestContextManager;

/**
 * A test class's context loaded by Spring's test framework, as JUnit's {@code SpringExtension}
 * loads it, so that one test can hold several contexts in one JVM, as the framework's context
 * cache does across the test classes of a run. Closing it marks the context dirty, which closes it.
 */
record TestContexts<T>(TestContextManager manager, T test) implements AutoCloseable {

    /** Loads the context of {@code testClass} and injects a new instance of it. */
    static <T> TestContexts<T> load(Class<T> testClass) throws Exception {
        TestContextManager manager = new TestContextManager(testClass);
        var constructor = testClass.getDeclaredConstructor();
        constructor.setAccessible(true);
        T test = constructor.newInstance();
        manager.prepareTestInstance(test);
        return new TestContexts<>(manager, test);
    }

    ApplicationContext context() {
        return manager.getTestContext().getApplicationContext();
    }

    /** The Lanes database behind the context's DataSource; fails when it is not Lanes'. */
    Database lanes() throws SQLException {
        return context().getBean(DataSource.class).unwrap(Database.class);
    }

    @Override
    public void close() {
        manager.getTestContext().markApplicationContextDirty(HierarchyMode.EXHAUSTIVE);
    }
}
