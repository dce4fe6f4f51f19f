package dev.lanes.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A query of ten million rows through {@code db.query} with {@code maxResultBytes} set fails
 * with {@code ResultTooLargeException} without the JVM ever holding the rows: shown in a child
 * JVM with a 64 MB heap, which the same query without the limit cannot survive.
 */
@Tag("slow")
@Timeout(300)
class ResultBombTest {
    static final String HEAP = "-Xmx64m";

    @TempDir Path dir;

    @Test
    void tenMillionRowsUnderMaxResultBytesFailTypedInASixtyFourMegabyteHeap() throws Exception {
        String out = child("limited");
        assertThat(out).contains("RESULT_TOO_LARGE").contains("maxResultBytes")
                .contains("HEALTHY 1");
    }

    @Test
    void withoutTheLimitTheSameQueryCannotBeHeldInThatHeap() throws Exception {
        // the control: it is the limit, not a generous heap, that lets the limited child live
        String out = child("unlimited");
        assertThat(out).doesNotContain("ROWS 10000000").doesNotContain("RESULT_TOO_LARGE");
        assertThat(out).containsAnyOf("OutOfMemoryError", "OUT_OF_MEMORY");
    }

    private String child(String mode) throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, HEAP, "-cp", System.getProperty("java.class.path"),
                ResultBombChild.class.getName(), dir.toString(), mode)
                .redirectErrorStream(true).start();
        byte[] bytes = p.getInputStream().readAllBytes();
        assertThat(p.waitFor(240, TimeUnit.SECONDS)).as("the child ended").isTrue();
        String out = new String(bytes, StandardCharsets.UTF_8);
        System.out.println("child " + mode + " (exit " + p.exitValue() + "):\n" + lastLines(out));
        return out;
    }

    private static String lastLines(String out) {
        String[] lines = out.split("\n");
        StringBuilder b = new StringBuilder();
        for (int i = Math.max(0, lines.length - 6); i < lines.length; i++) {
            b.append("  ").append(lines[i]).append('\n');
        }
        return b.toString();
    }
}
