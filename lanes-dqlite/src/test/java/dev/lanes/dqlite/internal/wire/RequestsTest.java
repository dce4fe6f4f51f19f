package dev.lanes.dqlite.internal.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lanes.dqlite.DqliteInvalidRequestException;
import dev.lanes.dqlite.DqliteRole;
import dev.lanes.dqlite.UnixTime;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/**
 * Byte-exact encodings of every request. The expected bytes are written out from the protocol's
 * definitions: an 8-byte header (body words as a little-endian u32, the type, schema 0, two zero
 * bytes), then body fields that each end on a word boundary.
 */
class RequestsTest {
    private final MessageEncoder encoder = new MessageEncoder(1 << 20);

    private static void assertBytes(ByteBuffer actual, String expectedHex) {
        assertThat(Hex.of(actual)).isEqualTo(Hex.norm(expectedHex));
    }

    @Test
    void leaderIsOneUnusedWord() {
        assertBytes(Requests.leader(encoder),
                "01000000 00 00 0000 | 0000000000000000");
    }

    @Test
    void clientCarriesItsId() {
        assertBytes(Requests.client(encoder, 0x0102030405060708L),
                "01000000 01 00 0000 | 0807060504030201");
    }

    @Test
    void openSendsNameFlagsAndEmptyVfs() {
        assertBytes(Requests.open(encoder, "app"),
                "03000000 03 00 0000 | 6170700000000000 | 0000000000000000 | 0000000000000000");
    }

    @Test
    void textIsZeroTerminatedAndPaddedToAWord() {
        // 7 characters and the terminator fill one word; 8 characters need two
        assertBytes(Requests.prepare(encoder, 0, "SELECT1"),
                "02000000 04 00 0000 | 0000000000000000 | 53454c4543543100");
        assertBytes(Requests.prepare(encoder, 2, "SELECT 1"),
                "03000000 04 00 0000 | 0200000000000000 | 53454c4543542031 0000000000000000");
    }

    @Test
    void execWithoutParametersSendsNoTuple() {
        assertBytes(Requests.exec(encoder, 0, 5, new Object[0]),
                "01000000 05 00 0000 | 00000000 05000000");
        assertBytes(Requests.finalizeStatement(encoder, 1, 7),
                "01000000 07 00 0000 | 01000000 07000000");
    }

    @Test
    void execAndQueryEncodeTheirParameterTuple() {
        String body = "00000000 05000000"          // db 0, statement 5
                + "03 01 03 05 00000000"            // 3 values: INTEGER, TEXT, NULL, padding
                + "2a00000000000000"                // 42
                + "6869000000000000"                // "hi"
                + "0000000000000000";               // NULL
        assertBytes(Requests.exec(encoder, 0, 5, new Object[] {42L, "hi", null}),
                "05000000 05 00 0000" + body);
        assertBytes(Requests.query(encoder, 0, 5, new Object[] {42L, "hi", null}),
                "05000000 06 00 0000" + body);
    }

    @Test
    void execSqlAndQuerySqlSendDatabaseSqlAndTuple() {
        String body = "0000000000000000"            // db 0 as a u64
                + "73656c6563742031 3f00000000000000" // "select 1?" (the text is not parsed)
                + "01 0b 000000000000"              // 1 value: BOOLEAN
                + "0100000000000000";               // true
        assertBytes(Requests.execSql(encoder, 0, "select 1?", new Object[] {true}),
                "05000000 08 00 0000" + body);
        assertBytes(Requests.querySql(encoder, 0, "select 1?", new Object[] {true}),
                "05000000 09 00 0000" + body);
    }

    @Test
    void everyParameterTypeHasItsCodeAndEncoding() {
        Instant instant = Instant.parse("2024-05-01T12:30:00.25Z");
        ByteBuffer message = Requests.exec(encoder, 0, 1, new Object[] {
            7, (short) -1, 1.5, 2.5f, new byte[] {1, 2, 3}, false, new UnixTime(1_700_000_000L), instant,
        });
        assertBytes(message, "0f000000 05 00 0000"
                + "00000000 01000000"
                // 8 values, so the header is the count and 8 type bytes, padded to two words
                + "08 01 01 02 02 04 0b 09" + "0a 00000000000000"
                + "0700000000000000"                // Integer 7 as int64
                + "ffffffffffffffff"                // Short -1, sign-extended
                + "000000000000f83f"                // 1.5 (IEEE 754 little endian)
                + "0000000000000440"                // 2.5f widened to double
                + "0300000000000000 0102030000000000" // blob: length word, bytes, padding
                + "0000000000000000"                // false
                + "00f1536500000000"                // UNIXTIME 1700000000 as int64
                // ISO8601 text "2024-05-01 12:30:00.25+00:00" (28 bytes + NUL = 32)
                + "323032342d30352d 30312031323a3330 3a30302e32352b30 303a303000000000");
    }

    @Test
    void isoTextFollowsTheValuesOffsetOrNone() {
        assertThat(Iso8601.format(Instant.parse("2024-05-01T12:30:00Z"))).isEqualTo("2024-05-01 12:30:00+00:00");
        assertThat(Iso8601.format(OffsetDateTime.of(2024, 5, 1, 12, 30, 0, 123_000_000, ZoneOffset.ofHours(2))))
                .isEqualTo("2024-05-01 12:30:00.123+02:00");
        assertThat(Iso8601.format(LocalDateTime.of(2024, 5, 1, 12, 30, 0, 1))).isEqualTo("2024-05-01 12:30:00.000000001");
        assertThat(Iso8601.format(LocalDate.of(2024, 5, 1))).isEqualTo("2024-05-01");
    }

    @Test
    void sixteenParametersTakeAThreeWordHeader() {
        Object[] params = new Object[16];
        ByteBuffer message = Requests.exec(encoder, 0, 0, params);
        // header: 1 count byte + 16 type bytes = 17, padded to 24; then 16 null words
        assertThat(message.remaining()).isEqualTo(8 + 8 + 24 + 16 * 8);
        assertThat(message.getInt(0)).isEqualTo((8 + 24 + 16 * 8) / 8);
        assertThat(message.get(16)).isEqualTo((byte) 16);
        for (int i = 0; i < 16; i++) {
            assertThat(message.get(17 + i)).isEqualTo((byte) Protocol.TYPE_NULL);
        }
        for (int i = 33; i < 40; i++) {
            assertThat(message.get(i)).isZero();
        }
    }

    @Test
    void membershipRequests() {
        assertBytes(Requests.add(encoder, 4, "127.0.0.1:9004"),
                "03000000 0c 00 0000 | 0400000000000000 | 3132372e302e302e 313a393030340000");
        assertBytes(Requests.assign(encoder, 4, DqliteRole.STANDBY),
                "02000000 0d 00 0000 | 0400000000000000 | 0100000000000000");
        assertBytes(Requests.assign(encoder, 4, DqliteRole.SPARE),
                "02000000 0d 00 0000 | 0400000000000000 | 0200000000000000");
        assertBytes(Requests.remove(encoder, 4),
                "01000000 0e 00 0000 | 0400000000000000");
        assertBytes(Requests.cluster(encoder),
                "01000000 10 00 0000 | 0100000000000000");
    }

    @Test
    void theMaximumOf255ParametersEncodesItsCountInOneByte() {
        ByteBuffer message = Requests.execSql(encoder, 0, "x", new Object[255]);
        // header, db id, "x": the tuple starts at byte 24
        assertThat(message.get(24) & 0xff).isEqualTo(255);
    }

    @Test
    void badInputIsRefusedBeforeAnythingIsEncoded() {
        assertThatThrownBy(() -> Requests.execSql(encoder, 0, "x", new Object[256]))
                .isInstanceOf(DqliteInvalidRequestException.class)
                .hasMessageContaining("256 parameters").hasMessageContaining("at most 255");
        assertThatThrownBy(() -> Requests.execSql(encoder, 0, "x", new Object[] {1L, "a\0b"}))
                .isInstanceOf(DqliteInvalidRequestException.class)
                .hasMessageContaining("parameter 2 contains a NUL character at index 1");
        assertThatThrownBy(() -> Requests.execSql(encoder, 0, "select\0", null))
                .isInstanceOf(DqliteInvalidRequestException.class)
                .hasMessageContaining("SQL text contains a NUL");
        assertThatThrownBy(() -> Requests.execSql(encoder, 0, "x", new Object[] {new StringBuilder("a")}))
                .isInstanceOf(DqliteInvalidRequestException.class)
                .hasMessageContaining("parameter 1 is a java.lang.StringBuilder");
        MessageEncoder small = new MessageEncoder(64);
        assertThatThrownBy(() -> Requests.execSql(small, 0, "x", new Object[] {new byte[100]}))
                .isInstanceOf(DqliteInvalidRequestException.class)
                .hasMessageContaining("more than 64 bytes");
        // the encoder is still good for the next request
        assertBytes(Requests.leader(small), "01000000 00 00 0000 | 0000000000000000");
    }
}
