package dev.lanes.internal.file;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The slot of a lease is an on-disk contract between processes, possibly of different Lanes
 * versions: if the derivation changed, two of them would lock different bytes for one database and
 * both own it.
 */
class LeaseSlotTest {
    @Test
    void theSlotIsTheDocumentedHashOfTheFileName() {
        // computed independently: Python's hashlib.sha256(b"app.db"), byte 0, then bytes 1..8
        // big-endian masked to 62 bits
        LeaseSlot slot = LeaseSlot.of(Path.of("/srv/app.db"));
        assertThat(slot.lockFile()).isEqualTo(Path.of("/srv/.lanes-lock/e8"));
        assertThat(slot.offset()).isEqualTo(1679330666746963032L);
    }

    @Test
    void theDatabasesOfADirectorySpreadOverAtMost256LockFiles() {
        Set<Path> files = new HashSet<>();
        Set<LeaseSlot> slots = new HashSet<>();
        for (int i = 0; i < 20_000; i++) {
            LeaseSlot slot = LeaseSlot.of(Path.of("/data/t-" + i + ".db"));
            assertThat(slot.lockFile().getParent()).isEqualTo(Path.of("/data/.lanes-lock"));
            assertThat(slot.offset()).isNotNegative();
            files.add(slot.lockFile());
            slots.add(slot);
        }
        assertThat(files).hasSize(LeaseSlot.FILES);
        assertThat(slots).as("no two of 20,000 names share a slot").hasSize(20_000);
    }
}
