package dev.lanes.dqlite.internal.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lanes.dqlite.DqliteResult;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Decoding of every response body from bytes written out by hand from the protocol's definitions
 * (little-endian words; text zero-terminated and padded; rows with 4-bit type headers, the first
 * column in the low nibble, and an end marker).
 */
class ResponsesTest {
    private static ByteBuffer body(String hex) {
        return ByteBuffer.wrap(Hex.bytes(hex));
    }

    @Test
    void failureCarriesCodeAndMessage() {
        Responses.Failure failure = Responses.failure(body(
                "0a28000000000000 | 6e6f74206c656164 6572000000000000"));
        assertThat(failure).isEqualTo(new Responses.Failure(10250, "not leader"));
    }

    @Test
    void serverWelcomeDbStmtResultEmpty() {
        assertThat(Responses.server(body("0200000000000000 | 3132372e302e302e 313a393030320000")))
                .isEqualTo(new Responses.NodeInfo(2, "127.0.0.1:9002", -1));
        assertThat(Responses.server(body("0000000000000000 | 0000000000000000")))
                .isEqualTo(new Responses.NodeInfo(0, "", -1));
        assertThat(Responses.welcome(body("983a000000000000"))).isEqualTo(15000);
        assertThat(Responses.db(body("07000000 00000000"))).isEqualTo(7);
        assertThat(Responses.stmt(body("00000000 03000000 | 0200000000000000")))
                .isEqualTo(new Responses.StmtInfo(0, 3, 2));
        assertThat(Responses.result(body("0500000000000000 | 0100000000000000")))
                .isEqualTo(new DqliteResult(5, 1));
        Responses.empty(body("0000000000000000"));
    }

    @Test
    void serversListIdsAddressesAndRoles() {
        List<Responses.NodeInfo> nodes = Responses.servers(body("0200000000000000"
                + "0100000000000000 613a310000000000 0000000000000000"
                + "0200000000000000 623a320000000000 0200000000000000"), 1);
        assertThat(nodes).containsExactly(new Responses.NodeInfo(1, "a:1", 0),
                new Responses.NodeInfo(2, "b:2", 2));
        assertThat(Responses.servers(body("0100000000000000 0900000000000000 633a330000000000"), 0))
                .containsExactly(new Responses.NodeInfo(9, "c:3", -1));
    }

    @Test
    void rowsOfTwoColumnsEndWithDone() {
        List<String> columns = new ArrayList<>();
        List<List<Object>> rows = new ArrayList<>();
        boolean done = Rows.decodeBatch(body("0200000000000000 | 6964000000000000 | 7600000000000000"
                // row 1: INTEGER (low nibble), TEXT (high nibble)
                + "3100000000000000 | 0100000000000000 | 7800000000000000"
                // row 2: NULL, BLOB of one byte
                + "4500000000000000 | 0000000000000000 | 0100000000000000 0900000000000000"
                + "ffffffffffffffff"), columns, rows);
        assertThat(done).isTrue();
        assertThat(columns).containsExactly("id", "v");
        assertThat(rows).hasSize(2);
        assertThat(rows.get(0)).containsExactly(1L, "x");
        assertThat(rows.get(1).get(0)).isNull();
        assertThat((byte[]) rows.get(1).get(1)).containsExactly(9);
    }

    @Test
    void everyValueTypeDecodes() {
        List<String> columns = new ArrayList<>();
        List<List<Object>> rows = new ArrayList<>();
        StringBuilder hex = new StringBuilder("0800000000000000");
        for (char c = 'a'; c <= 'h'; c++) {
            hex.append(String.format("%02x00000000000000", (int) c));
        }
        hex.append("21 43 95 ba 00000000"); // 1,2 | 3,4 | 5,9 | 10,11
        hex.append("f9ffffffffffffff");     // INTEGER -7
        hex.append("000000000000f8bf");     // FLOAT -1.5
        hex.append("c3a9000000000000");     // TEXT "é" in UTF-8
        hex.append("0000000000000000");     // BLOB of no bytes
        hex.append("0000000000000000");     // NULL
        hex.append("00f1536500000000");     // UNIXTIME 1700000000
        // ISO8601 "2024-05-01 12:30:00+02:00" (25 bytes + NUL = 32)
        hex.append("323032342d30352d 30312031323a3330 3a30302b30323a30 3000000000000000");
        hex.append("0100000000000000");     // BOOLEAN true
        hex.append("ffffffffffffffff");
        assertThat(Rows.decodeBatch(body(hex.toString()), columns, rows)).isTrue();
        assertThat(columns).containsExactly("a", "b", "c", "d", "e", "f", "g", "h");
        List<Object> row = rows.get(0);
        assertThat(row.get(0)).isEqualTo(-7L);
        assertThat(row.get(1)).isEqualTo(-1.5);
        assertThat(row.get(2)).isEqualTo("é");
        assertThat((byte[]) row.get(3)).isEmpty();
        assertThat(row.get(4)).isNull();
        assertThat(row.get(5)).isEqualTo(Instant.ofEpochSecond(1_700_000_000L));
        assertThat(row.get(6)).isEqualTo(OffsetDateTime.of(2024, 5, 1, 12, 30, 0, 0, ZoneOffset.ofHours(2)));
        assertThat(row.get(7)).isEqualTo(true);
    }

    @Test
    void seventeenColumnsTakeATwoWordRowHeader() {
        StringBuilder hex = new StringBuilder("1100000000000000");
        for (int i = 0; i < 17; i++) {
            hex.append("6300000000000000"); // every column named "c"
        }
        hex.append("1111111111111111 0100000000000000"); // 16 INTEGER nibbles, then the 17th
        for (int i = 0; i < 17; i++) {
            hex.append(String.format("%02x00000000000000", i));
        }
        hex.append("ffffffffffffffff");
        List<List<Object>> rows = new ArrayList<>();
        Rows.decodeBatch(body(hex.toString()), new ArrayList<>(), rows);
        assertThat(rows).hasSize(1);
        assertThat(rows.get(0)).hasSize(17);
        assertThat(rows.get(0).get(16)).isEqualTo(16L);
    }

    @Test
    void aPartMarkerMeansAnotherBatchFollowsWithTheSameColumns() {
        List<String> columns = new ArrayList<>();
        List<List<Object>> rows = new ArrayList<>();
        String header = "0100000000000000 6e00000000000000";
        assertThat(Rows.decodeBatch(body(header + "0100000000000000 0100000000000000"
                + "0100000000000000 0200000000000000 eeeeeeeeeeeeeeee"), columns, rows)).isFalse();
        assertThat(Rows.decodeBatch(body(header + "0100000000000000 0300000000000000"
                + "ffffffffffffffff"), columns, rows)).isTrue();
        assertThat(columns).containsExactly("n");
        assertThat(rows).extracting(r -> r.get(0)).containsExactly(1L, 2L, 3L);
        // an empty result set is the header and the marker alone
        List<List<Object>> none = new ArrayList<>();
        assertThat(Rows.decodeBatch(body(header + "ffffffffffffffff"), new ArrayList<>(), none)).isTrue();
        assertThat(none).isEmpty();
    }

    @Test
    void malformedRowsAreRefused() {
        String header = "0100000000000000 6e00000000000000";
        assertThatThrownBy(() -> Rows.decodeBatch(body(header + "0100000000000000 0100000000000000"),
                new ArrayList<>(), new ArrayList<>()))
                .isInstanceOf(MalformedResponseException.class).hasMessageContaining("without an end marker");
        assertThatThrownBy(() -> Rows.decodeBatch(body(header + "ffffffffffffffff 0000000000000000"),
                new ArrayList<>(), new ArrayList<>()))
                .isInstanceOf(MalformedResponseException.class).hasMessageContaining("after the end marker");
        assertThatThrownBy(() -> Rows.decodeBatch(body(header + "0700000000000000 0000000000000000 ffffffffffffffff"),
                new ArrayList<>(), new ArrayList<>()))
                .isInstanceOf(MalformedResponseException.class).hasMessageContaining("value type 7");
        assertThatThrownBy(() -> Rows.decodeBatch(body(header + "0300000000000000 6e6f2d7a65726f21 ffffffffffffffff"),
                new ArrayList<>(), new ArrayList<>()))
                .isInstanceOf(MalformedResponseException.class);
        List<String> columns = new ArrayList<>(List.of("other"));
        assertThatThrownBy(() -> Rows.decodeBatch(body(header + "ffffffffffffffff"), columns, new ArrayList<>()))
                .isInstanceOf(MalformedResponseException.class).hasMessageContaining("named it other");
        assertThatThrownBy(() -> Responses.failure(body("0100000000000000")))
                .isInstanceOf(MalformedResponseException.class);
    }

    @Test
    void aQueryFailureAfterTheColumnHeaderIsReadPastIt() {
        // libdqlite 1.11 writes a failure that happens while stepping after the column header
        // (and any rows) already in the message
        String failure = "0100000000000000 | 696e746567657220 6f766572666c6f77 0000000000000000";
        assertThat(Responses.queryFailure(body(failure)))
                .isEqualTo(new Responses.Failure(1, "integer overflow"));
        assertThat(Responses.queryFailure(body("0100000000000000 7800000000000000 | " + failure)))
                .isEqualTo(new Responses.Failure(1, "integer overflow"));
        assertThat(Responses.queryFailure(body("0100000000000000 7800000000000000"
                + "0100000000000000 0500000000000000 | " + failure)))
                .isEqualTo(new Responses.Failure(1, "integer overflow"));
    }

    @Test
    void isoTextParsesInTheLayoutsDqliteClientsWrite() {
        OffsetDateTime utc = OffsetDateTime.of(2024, 5, 1, 12, 30, 0, 0, ZoneOffset.UTC);
        assertThat(Iso8601.parse("2024-05-01 12:30:00+00:00")).isEqualTo(utc);
        assertThat(Iso8601.parse("2024-05-01T12:30:00Z")).isEqualTo(utc);
        assertThat(Iso8601.parse("2024-05-01 12:30:00")).isEqualTo(utc);
        assertThat(Iso8601.parse("2024-05-01 12:30")).isEqualTo(utc);
        assertThat(Iso8601.parse("2024-05-01T12:30:00.5-03:00"))
                .isEqualTo(OffsetDateTime.of(2024, 5, 1, 12, 30, 0, 500_000_000, ZoneOffset.ofHours(-3)));
        assertThat(Iso8601.parse("2024-05-01")).isEqualTo(utc.withHour(0).withMinute(0));
        assertThat(Iso8601.parse("")).isNull();
        assertThat(Iso8601.parse("tomorrow")).isEqualTo("tomorrow");
        Instant instant = Instant.parse("2024-05-01T12:30:00.123456789Z");
        assertThat(((OffsetDateTime) Iso8601.parse(Iso8601.format(instant))).toInstant()).isEqualTo(instant);
    }
}
