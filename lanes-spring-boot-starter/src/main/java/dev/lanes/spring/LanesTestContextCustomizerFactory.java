package dev.lanes.spring;

import java.util.List;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.PropertySource;
import org.springframework.test.context.ContextConfigurationAttributes;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.ContextCustomizerFactory;
import org.springframework.test.context.MergedContextConfiguration;

/**
 * What the starter adds to every context of Spring's test framework (registered in {@code
 * META-INF/spring.factories}; loaded only where spring-test is):
 *
 * <ul>
 *   <li>the context's {@link TestDatabaseDirectory}, so that cached test contexts never share a
 *       database file;
 *   <li>a default for {@code spring.test.database.replace}: {@code none} while {@code
 *       lanes.datasource} makes the application's data source. A test slice's {@code
 *       @AutoConfigureTestDatabase} then keeps the Lanes database (its own, fresh one) instead of
 *       swapping in H2 or another embedded database of a different SQL dialect; a test that asks
 *       for {@code replace = ANY} or {@code AUTO_CONFIGURED} gets Boot's embedded database as
 *       asked.
 * </ul>
 */
final class LanesTestContextCustomizerFactory implements ContextCustomizerFactory {

    @Override
    public ContextCustomizer createContextCustomizer(Class<?> testClass,
            List<ContextConfigurationAttributes> configAttributes) {
        return new Customizer();
    }

    /** Equal to every other: it holds nothing of a test class, so it never splits the cache. */
    private static final class Customizer implements ContextCustomizer {

        @Override
        public void customizeContext(ConfigurableApplicationContext context,
                MergedContextConfiguration mergedConfig) {
            ConfigurableEnvironment environment = context.getEnvironment();
            environment.getPropertySources().addLast(new ReplaceDefault(environment));
            ConfigurableListableBeanFactory beans = context.getBeanFactory();
            if (beans instanceof BeanDefinitionRegistry registry
                    && !registry.containsBeanDefinition(TestDatabaseDirectory.BEAN)) {
                RootBeanDefinition directory = new RootBeanDefinition(TestDatabaseDirectory.class,
                        () -> new TestDatabaseDirectory(environment, beans));
                directory.setLazyInit(true);
                directory.setRole(BeanDefinition.ROLE_INFRASTRUCTURE);
                directory.setDestroyMethodName("close");
                registry.registerBeanDefinition(TestDatabaseDirectory.BEAN, directory);
            }
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Customizer;
        }

        @Override
        public int hashCode() {
            return Customizer.class.hashCode();
        }
    }

    /**
     * {@code spring.test.database.replace=none} while Lanes makes the application's data source,
     * decided when it is read (after every property source of the test is in place). Added last,
     * so any value set anywhere else wins.
     */
    static final class ReplaceDefault extends PropertySource<Object> {
        static final String NAME = "lanesTestDatabaseReplaceDefault";
        static final String PROPERTY = "spring.test.database.replace";

        // not the source: Boot reads a source that is an environment as its property sources
        private final ConfigurableEnvironment environment;

        ReplaceDefault(ConfigurableEnvironment environment) {
            super(NAME, new Object());
            this.environment = environment;
        }

        @Override
        public Object getProperty(String name) {
            if (!PROPERTY.equals(name)) {
                return null;
            }
            boolean lanes = environment.getProperty(LanesProperties.PREFIX + ".enabled",
                    Boolean.class, true)
                    && PrimaryDataSourceCondition.hasText(environment,
                            PrimaryDataSourceCondition.PATH)
                    && PrimaryDataSourceCondition.otherDataSourceProperty(environment) == null;
            return lanes ? "none" : null;
        }
    }
}
