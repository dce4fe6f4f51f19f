package dev.lanes.spring;

import dev.lanes.Database;
import dev.lanes.Lanes;
import java.util.Map;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.AbstractBeanDefinition;
import org.springframework.beans.factory.support.AutowireCandidateQualifier;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.EnvironmentAware;
import org.springframework.context.annotation.ImportBeanDefinitionRegistrar;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotationMetadata;

/**
 * Registers one {@link Database} bean per {@code lanes.databases.<name>}, named and qualified
 * {@code <name>}. The bean opens the database from the bound {@link LanesProperties}, on the
 * runtime bean, and closes it when the context closes (before the runtime).
 */
final class NamedDatabasesRegistrar implements ImportBeanDefinitionRegistrar, EnvironmentAware,
        BeanFactoryAware {
    static final String PREFIX = LanesProperties.PREFIX + ".databases";

    private Environment environment;
    private ConfigurableListableBeanFactory beanFactory;

    @Override
    public void setEnvironment(Environment environment) {
        this.environment = environment;
    }

    @Override
    public void setBeanFactory(BeanFactory beanFactory) {
        this.beanFactory = (ConfigurableListableBeanFactory) beanFactory;
    }

    @Override
    public void registerBeanDefinitions(AnnotationMetadata metadata,
            BeanDefinitionRegistry registry) {
        Map<String, LanesProperties.DatabaseProperties> databases = Binder.get(environment)
                .bind(PREFIX, Bindable.mapOf(String.class, LanesProperties.DatabaseProperties.class))
                .orElse(Map.of());
        for (String name : databases.keySet()) {
            if (LanesDatabases.PRIMARY.equals(name)) {
                throw new IllegalArgumentException(PREFIX + "." + name + ": the name '" + name
                        + "' stands for lanes.datasource; give this database another name");
            }
            RootBeanDefinition definition = new RootBeanDefinition(Database.class,
                    () -> open(name));
            definition.addQualifier(new AutowireCandidateQualifier(Qualifier.class, name));
            definition.setDestroyMethodName(AbstractBeanDefinition.INFER_METHOD);
            registry.registerBeanDefinition(name, definition);
        }
    }

    private Database open(String name) {
        LanesProperties properties = beanFactory.getBean(LanesProperties.class);
        Lanes lanes = beanFactory.getBean(Lanes.class);
        for (String runtime : beanFactory.getBeanNamesForType(Lanes.class)) {
            // closed before the runtime it runs on
            beanFactory.registerDependentBean(runtime, name);
        }
        return DatabaseOpener.open(beanFactory, lanes, PREFIX + "." + name,
                properties.databases().get(name), "databases/" + name);
    }
}
