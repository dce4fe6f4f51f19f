package dev.lanes.dqlite.internal.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class AddressesTest {
    @Test
    void hostPortAndBracketedIpv6AreAccepted() {
        assertThat(Addresses.check("127.0.0.1:9001")).isEqualTo("127.0.0.1:9001");
        assertThat(Addresses.check("db-1.example:9001")).isEqualTo("db-1.example:9001");
        assertThat(Addresses.check("[::1]:9001")).isEqualTo("[::1]:9001");
        assertThat(Addresses.resolve("[::1]:9001").getPort()).isEqualTo(9001);
    }

    @Test
    void anythingElseIsRefusedWithTheAddressNamed() {
        for (String bad : new String[] {"127.0.0.1", ":9001", "host:", "host:0", "host:70000", "host:x",
            "::1:9001", "[::1]9001", "[]:1"}) {
            assertThatThrownBy(() -> Addresses.check(bad)).as(bad)
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'" + bad + "'");
        }
    }

    @Test
    void aNodeIsTheSameUnderEitherNameOfItsHost() {
        assertThat(Addresses.same("127.0.0.1:9001", "127.0.0.1:9001")).isTrue();
        assertThat(Addresses.same("localhost:9001", "127.0.0.1:9001")).isTrue();
        assertThat(Addresses.same("127.0.0.1:9001", "127.0.0.1:9002")).isFalse();
        assertThat(Addresses.same("127.0.0.1:9001", "127.0.0.2:9001")).isFalse();
        assertThat(Addresses.same("no-such-host.invalid:9001", "127.0.0.1:9001")).isFalse();
    }
}
