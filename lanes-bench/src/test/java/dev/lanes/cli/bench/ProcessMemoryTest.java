package dev.lanes.cli.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class ProcessMemoryTest {
    @Test
    void readsTheResidentSetFromProcStatus() {
        assertThat(ProcessMemory.parseVmRss(List.of("Name:\tjava", "VmRSS:\t  123456 kB",
                "Threads:\t20"))).isEqualTo(123456L * 1024);
        assertThat(ProcessMemory.parseVmRss(List.of("Name:\tjava"))).isEqualTo(-1);
    }

    @Test
    void tenantFootprintChargesTheDatabasesOnlyWithGrowthBeyondTheHeap() {
        // RSS grew by 200 MB, of which 32 MB was the committed heap growing
        TenantFootprint f = new TenantFootprint(1000, 100, 0.8, 0.8, 64, 64, 2000, 0, -1, -1, 10_000_000,
                60_000_000, 64_000_000, 96_000_000, 300_000_000, 500_000_000, 1.0);

        assertThat(f.heapBytesPerDatabase()).isEqualTo(50_000);
        assertThat(f.rssBytesPerDatabase()).isEqualTo(168_000);
        TenantFootprint unknown = new TenantFootprint(1, 1, 1, 1, 1, 1, 1, 0, -1, -1, 0, 0, 0, 0, -1, -1, 0);
        assertThat(unknown.rssBytesPerDatabase()).isEqualTo(-1);
    }
}
