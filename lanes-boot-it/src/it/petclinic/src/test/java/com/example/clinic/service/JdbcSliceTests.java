package com.example.clinic.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lanes.Database;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.jdbc.test.autoconfigure.JdbcTest;
import org.springframework.jdbc.core.simple.JdbcClient;

/** The JDBC slice runs the application's scripts on Lanes. */
@JdbcTest
class JdbcSliceTests {
    @Autowired
    JdbcClient jdbc;

    @Autowired
    DataSource dataSource;

    @Test
    void theScriptsRanOnLanes() throws Exception {
        assertThat(dataSource.unwrap(Database.class).path()).exists();
        assertThat(jdbc.sql("SELECT count(*) FROM vets").query(Integer.class).single())
                .isEqualTo(6);
        assertThat(jdbc.sql("SELECT sqlite_version()").query(String.class).single())
                .startsWith("3.");
    }
}
