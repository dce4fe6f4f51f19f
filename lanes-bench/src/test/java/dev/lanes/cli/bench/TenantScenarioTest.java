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
        assertThat(budget).isEqualTo(5_623);
        // three descriptors per connection, the directory's lease files, 1,000 to spare, and a
        // tenth of the rest as headroom for the cap's brief overshoot
        long spare = DatabaseFiles.LOCK_FILES + 1_000;
        assertThat(3L * budget + spare + (20_000 - spare) / 10).isLessThanOrEqualTo(20_000);
        assertThat(TenantScenario.connectionBudget(10_000, 20_000))
                .as("independent of the number of tenants once they do not fit").isEqualTo(budget);
    }

    @Test
    void setUpConnectsEveryTenantUnlessTheBudgetWouldCloseThemAgain() {
        assertThat(TenantScenario.connectedAtStart(1_000, 0)).as("no budget").isEqualTo(1_000);
        // a writer and a reader each: as many tenants as the budget keeps both of
        assertThat(TenantScenario.connectedAtStart(100_000, 5_623)).isEqualTo(2_811);
        assertThat(TenantScenario.connectedAtStart(2_000, 5_623)).isEqualTo(2_000);
        assertThat(TenantScenario.connectedAtStart(10, 1)).isEqualTo(1);
    }
}
