package dev.lanes.cli.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lanes.DatabaseFiles;
import org.junit.jupiter.api.Test;

class TenantScenarioTest {
    @Test
    void tenantsThatFitTheDescriptorLimitGetNoBudget() {
        assertThat(TenantScenario.connectionBudget(1_000, 20_000)).isZero();
        assertThat(TenantScenario.connectionBudget(100_000, -1)).as("limit unknown").isZero();
    }

    @Test
    void aBudgetKeepsConnectionsLeasesAndTheJvmsOwnFilesUnderTheLimit() {
        int budget = TenantScenario.connectionBudget(100_000, 20_000);
        assertThat(budget).isEqualTo(6_248);
        // three descriptors per connection, the directory's lease files, and 1,000 to spare
        assertThat(3L * budget + DatabaseFiles.LOCK_FILES + 1_000).isLessThanOrEqualTo(20_000);
        assertThat(TenantScenario.connectionBudget(10_000, 20_000))
                .as("independent of the number of tenants once they do not fit").isEqualTo(budget);
    }
}
