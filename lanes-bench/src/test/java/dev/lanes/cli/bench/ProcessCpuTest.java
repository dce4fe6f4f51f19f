package dev.lanes.cli.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ProcessCpuTest {
    @Test
    void cpuPerOperationIsMicrosecondsOfCpuOverAcknowledgedRequests() {
        // 2 CPU seconds over 100,000 requests: 20 us each
        assertThat(ProcessCpu.microsPerOperation(2_000_000_000L, 100_000)).isEqualTo(20.0);
        assertThat(ProcessCpu.microsPerOperation(1_500, 1)).isEqualTo(1.5);
    }

    @Test
    void anUnknownCpuTimeOrNoRequestsHaveNoFigureRatherThanZero() {
        assertThat(ProcessCpu.microsPerOperation(ProcessCpu.UNAVAILABLE, 100)).isNull();
        assertThat(ProcessCpu.microsPerOperation(5_000, 0)).isNull();
        assertThat(ProcessCpu.utilisation(ProcessCpu.UNAVAILABLE, 1_000, 2)).isNull();
        assertThat(ProcessCpu.utilisation(1_000, 0, 2)).isNull();
    }

    @Test
    void utilisationIsCpuOverWallTimeOverProcessors() {
        // 3 CPU seconds in 2 wall seconds on 2 processors: three quarters of the machine
        assertThat(ProcessCpu.utilisation(3_000_000_000L, 2_000_000_000L, 2)).isEqualTo(0.75);
        assertThat(ProcessCpu.utilisation(4_000_000_000L, 1_000_000_000L, 4)).isEqualTo(1.0);
    }

    @Test
    void theProcessCpuTimeIsUnknownOrGrowsWithWork() {
        long before = ProcessCpu.nanos();
        long sum = 0;
        for (int i = 0; i < 50_000_000; i++) {
            sum += i ^ (sum >>> 3);
        }
        long after = ProcessCpu.nanos();
        assertThat(sum).isNotZero();
        if (before == ProcessCpu.UNAVAILABLE) {
            assertThat(after).isEqualTo(ProcessCpu.UNAVAILABLE);
        } else {
            assertThat(after).isGreaterThan(before);
        }
    }
}
