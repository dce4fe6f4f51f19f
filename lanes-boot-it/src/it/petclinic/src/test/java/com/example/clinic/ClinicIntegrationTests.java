package com.example.clinic;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lanes.Database;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.client.RestClient;

/** The whole application on a real port, as PetClinic's integration tests run it. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class ClinicIntegrationTests {
    private static final ParameterizedTypeReference<List<Map<String, Object>>> LIST =
            new ParameterizedTypeReference<>() {};

    @LocalServerPort
    int port;

    @Autowired
    DataSource dataSource;

    private RestClient http() {
        return RestClient.create("http://localhost:" + port);
    }

    @Test
    void runsOnLanesInADatabaseFileOfItsOwn() throws Exception {
        Database db = dataSource.unwrap(Database.class);
        assertThat(db.path()).exists();
        assertThat(db.path().getFileName()).hasToString("clinic.db");
    }

    @Test
    void listsTheVetsWithTheirSpecialties() {
        List<Map<String, Object>> vets = http().get().uri("/vets").retrieve().body(LIST);
        assertThat(vets).hasSize(6);
        assertThat(vets).filteredOn(v -> "Douglas".equals(v.get("lastName")))
                .singleElement().extracting(v -> v.get("specialties"))
                .isEqualTo(List.of("dentistry", "surgery"));
    }

    @Test
    void createsAnOwnerAndFindsIt() {
        ResponseEntity<Map<String, Object>> created = http().post().uri("/owners")
                .contentType(MediaType.APPLICATION_JSON)
                .body(Map.of("firstName", "Joe", "lastName", "Schroeder", "address",
                        "1 Main St", "city", "Madison", "telephone", "6085550000"))
                .retrieve().toEntity(new ParameterizedTypeReference<>() {});
        assertThat(created.getStatusCode()).isEqualTo(HttpStatus.CREATED);
        assertThat(created.getBody()).containsKey("id");
        List<Map<String, Object>> found = http().get().uri("/owners?lastName=Schroe")
                .retrieve().body(LIST);
        assertThat(found).singleElement().extracting(o -> o.get("firstName")).isEqualTo("Joe");
    }
}
