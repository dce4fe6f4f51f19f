package com.example.clinic.service;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.clinic.owner.OwnerRepository;
import dev.lanes.Database;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.data.jpa.test.autoconfigure.DataJpaTest;

/** A JPA slice left at its default: with H2 on the class path, it still runs on Lanes. */
@DataJpaTest
class DefaultReplaceTests {
    @Autowired
    OwnerRepository owners;

    @Autowired
    DataSource dataSource;

    @Test
    void theSliceRunsOnLanesNotOnH2() throws Exception {
        assertThat(dataSource.unwrap(Database.class).path()).exists();
        assertThat(owners.findPetTypes()).hasSize(6);
    }
}
