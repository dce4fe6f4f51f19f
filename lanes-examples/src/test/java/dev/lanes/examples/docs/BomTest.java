package dev.lanes.examples.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * lanes-bom keeps an application's Lanes modules on one version, so it must manage every module
 * a release publishes: each module of the build whose POM does not skip the deploy (the
 * examples, the benchmarks and the integration tests do), and nothing else.
 */
class BomTest {
    private static final Pattern MODULE = Pattern.compile("<module>([^<]+)</module>");
    private static final Pattern MANAGED = Pattern.compile(
            "<groupId>dev\\.lanes</groupId>\\s*<artifactId>([^<]+)</artifactId>");

    @Test
    void theBomManagesEveryPublishedModule() {
        List<String> published = new ArrayList<>();
        for (String module : matches(MODULE, Docs.read(Docs.root().resolve("pom.xml")))) {
            String pom = Docs.read(Docs.root().resolve(module).resolve("pom.xml"));
            if (!module.equals("lanes-bom") && !pom.contains("<maven.deploy.skip>true<")) {
                published.add(module);
            }
        }
        assertThat(published).as("the published modules").contains("lanes-core", "lanes-fleet");

        String bom = Docs.read(Docs.root().resolve("lanes-bom/pom.xml"));
        String managed = bom.substring(bom.indexOf("<dependencyManagement>"),
                bom.indexOf("</dependencyManagement>"));

        assertThat(matches(MANAGED, managed)).as("the artifacts lanes-bom manages")
                .containsExactlyInAnyOrderElementsOf(published);
    }

    private static List<String> matches(Pattern pattern, String text) {
        List<String> found = new ArrayList<>();
        Matcher m = pattern.matcher(text);
        while (m.find()) {
            found.add(m.group(1).strip());
        }
        return found;
    }
}
