package dev.lanes.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine.IVersionProvider;

/**
 * Answers {@code lanes --version} from the {@code pom.properties} that Maven puts into the jar, so
 * the version is written in one place only (the pom). Run from unpackaged classes, as in tests,
 * the version is unknown.
 */
final class VersionProvider implements IVersionProvider {
    private static final String POM_PROPERTIES = "/META-INF/maven/dev.lanes/lanes-cli/pom.properties";

    @Override
    public String[] getVersion() throws IOException {
        String version = "unknown";
        try (InputStream in = VersionProvider.class.getResourceAsStream(POM_PROPERTIES)) {
            if (in != null) {
                Properties properties = new Properties();
                properties.load(in);
                version = properties.getProperty("version", version);
            }
        }
        return new String[] {
            "lanes " + version,
            "Java " + System.getProperty("java.version") + " (" + System.getProperty("java.vendor") + ")"
        };
    }
}
