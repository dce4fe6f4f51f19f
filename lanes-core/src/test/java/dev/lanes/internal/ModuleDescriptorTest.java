package dev.lanes.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.nio.file.Path;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The module exports the public API and nothing else: every internal package stays closed to
 * other modules, so nothing outside the library can come to depend on the implementation.
 */
class ModuleDescriptorTest {
    /** The packages users may use; every other package of the module is the implementation. */
    static final Set<String> PUBLIC = Set.of("dev.lanes", "dev.lanes.jmx", "dev.lanes.spi");

    @Test
    void onlyThePublicPackagesAreExported() throws Exception {
        // the compiled module as a module path would find it: its descriptor and its packages
        ModuleDescriptor module = ModuleFinder.of(Path.of("target", "classes")).find("dev.lanes")
                .orElseThrow(() -> new AssertionError("no module dev.lanes in target/classes"))
                .descriptor();
        assertThat(module.name()).isEqualTo("dev.lanes");
        Set<String> exported = module.exports().stream()
                .map(ModuleDescriptor.Exports::source).collect(Collectors.toSet());
        assertThat(exported).isEqualTo(PUBLIC);
        assertThat(module.exports()).allSatisfy(e -> assertThat(e.isQualified())
                .as("no qualified export of %s", e.source()).isFalse());
        assertThat(module.opens()).as("nothing opened to reflection").isEmpty();
        assertThat(module.packages()).as("the implementation's packages are in the module")
                .contains("dev.lanes.internal.writer", "dev.lanes.internal.reader",
                        "dev.lanes.internal.engine");
    }
}
