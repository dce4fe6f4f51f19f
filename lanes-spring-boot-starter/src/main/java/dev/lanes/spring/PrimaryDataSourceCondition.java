package dev.lanes.spring;

import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.condition.ConditionEvaluationReport;
import org.springframework.boot.autoconfigure.condition.ConditionMessage;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.JdbcConnectionDetails;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.ConfigurationCondition;
import org.springframework.core.env.PropertyResolver;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.util.StringUtils;

/**
 * Whether {@code lanes.datasource} makes the primary database and the application's {@code
 * DataSource}: {@code lanes.datasource.path} is set and the application configures no other data
 * source. It backs off when Boot's {@code DataSourceAutoConfiguration} is excluded (the
 * application wants no data source), when {@code spring.datasource.url} or {@code
 * spring.datasource.jndi-name} is set (a profile pointing at another database), and when a {@code
 * JdbcConnectionDetails} bean is defined (a Testcontainers {@code @ServiceConnection}, Docker
 * Compose). Evaluated once the application's own bean definitions are registered.
 */
final class PrimaryDataSourceCondition extends SpringBootCondition
        implements ConfigurationCondition {
    static final String PATH = LanesProperties.PREFIX + ".datasource.path";

    private static final String[] OTHER_DATA_SOURCE_PROPERTIES = {"spring.datasource.url",
            "spring.datasource.jndi-name"};

    @Override
    public ConfigurationPhase getConfigurationPhase() {
        return ConfigurationPhase.REGISTER_BEAN;
    }

    @Override
    public ConditionOutcome getMatchOutcome(ConditionContext context,
            AnnotatedTypeMetadata metadata) {
        ConditionMessage.Builder message = ConditionMessage.forCondition("Lanes data source");
        if (!hasText(context.getEnvironment(), PATH)) {
            return ConditionOutcome.noMatch(message.didNotFind("property").items(PATH));
        }
        String other = otherDataSource(context.getEnvironment(), context.getBeanFactory());
        if (other != null) {
            return ConditionOutcome.noMatch(message.because(other));
        }
        return ConditionOutcome.match(message.found("property").items(PATH));
    }

    /**
     * Why the application's data source is not Lanes' although {@code lanes.datasource.path} may
     * be set; {@code null} when nothing else is configured.
     */
    static String otherDataSource(PropertyResolver environment,
            ConfigurableListableBeanFactory beans) {
        ConditionEvaluationReport report = beans == null ? null
                : ConditionEvaluationReport.find(beans);
        if (report != null && report.getExclusions().contains(
                DataSourceAutoConfiguration.class.getName())) {
            return "DataSourceAutoConfiguration is excluded";
        }
        String property = otherDataSourceProperty(environment);
        if (property != null) {
            return property + " is set";
        }
        if (beans != null) {
            String[] details = beans.getBeanNamesForType(JdbcConnectionDetails.class, true, false);
            if (details.length > 0) {
                return "a JdbcConnectionDetails bean is defined ('" + details[0] + "')";
            }
        }
        return null;
    }

    /** The property that configures another data source, or {@code null}. */
    static String otherDataSourceProperty(PropertyResolver environment) {
        for (String property : OTHER_DATA_SOURCE_PROPERTIES) {
            if (hasText(environment, property)) {
                return property;
            }
        }
        return null;
    }

    static boolean hasText(PropertyResolver environment, String property) {
        return StringUtils.hasText(environment.getProperty(property));
    }
}
