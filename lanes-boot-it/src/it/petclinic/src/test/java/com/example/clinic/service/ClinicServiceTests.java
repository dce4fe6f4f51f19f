package com.example.clinic.service;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.clinic.owner.Owner;
import com.example.clinic.owner.OwnerRepository;
import com.example.clinic.owner.Pet;
import com.example.clinic.owner.PetType;
import com.example.clinic.owner.Visit;
import com.example.clinic.vet.Vet;
import com.example.clinic.vet.VetRepository;
import dev.lanes.Database;
import java.time.LocalDate;
import java.util.Collection;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.data.jpa.test.autoconfigure.DataJpaTest;
import org.springframework.boot.jdbc.test.autoconfigure.AutoConfigureTestDatabase;
import org.springframework.boot.jdbc.test.autoconfigure.AutoConfigureTestDatabase.Replace;
import org.springframework.data.domain.Page;
import org.springframework.data.domain.Pageable;

/** The repositories, as PetClinic tests them: a JPA slice told to keep the application's database. */
@DataJpaTest
@AutoConfigureTestDatabase(replace = Replace.NONE)
class ClinicServiceTests {
    @Autowired
    OwnerRepository owners;

    @Autowired
    VetRepository vets;

    @Autowired
    DataSource dataSource;

    Pageable pageable = Pageable.unpaged();

    @Test
    void runsOnLanes() throws Exception {
        Database db = dataSource.unwrap(Database.class);
        assertThat(db.path()).exists();
        assertThat(db.path().getFileName()).hasToString("clinic.db");
    }

    @Test
    void shouldFindOwnersByLastName() {
        assertThat(owners.findByLastNameStartingWith("Davis", pageable)).hasSize(2);
        assertThat(owners.findByLastNameStartingWith("Daviss", pageable)).isEmpty();
    }

    @Test
    void shouldFindSingleOwnerWithPet() {
        Owner owner = owners.findById(1).orElseThrow();
        assertThat(owner.getLastName()).startsWith("Franklin");
        assertThat(owner.getPets()).hasSize(1);
        assertThat(owner.getPets().get(0).getType()).isNotNull();
        assertThat(owner.getPets().get(0).getType().getName()).isEqualTo("cat");
    }

    @Test
    void shouldInsertOwner() {
        Page<Owner> before = owners.findByLastNameStartingWith("Schultz", pageable);
        Owner owner = new Owner();
        owner.setFirstName("Sam");
        owner.setLastName("Schultz");
        owner.setAddress("4, Evans Street");
        owner.setCity("Wollongong");
        owner.setTelephone("4444444444");
        owners.save(owner);
        assertThat(owner.getId()).isNotNull();
        assertThat(owners.findByLastNameStartingWith("Schultz", pageable).getTotalElements())
                .isEqualTo(before.getTotalElements() + 1);
    }

    @Test
    void shouldUpdateOwner() {
        Owner owner = owners.findById(1).orElseThrow();
        String newLastName = owner.getLastName() + "X";
        owner.setLastName(newLastName);
        owners.save(owner);
        assertThat(owners.findById(1).orElseThrow().getLastName()).isEqualTo(newLastName);
    }

    @Test
    void shouldFindAllPetTypes() {
        List<PetType> types = owners.findPetTypes();
        assertThat(types).extracting(PetType::getName).contains("cat", "snake")
                .isSorted();
    }

    @Test
    void shouldInsertPetIntoDatabaseAndGenerateId() {
        Owner owner6 = owners.findById(6).orElseThrow();
        int found = owner6.getPets().size();
        Pet pet = new Pet();
        pet.setName("bowser");
        pet.setType(owners.findPetTypes().stream().filter(t -> t.getName().equals("dog"))
                .findFirst().orElseThrow());
        pet.setBirthDate(LocalDate.now());
        owner6.addPet(pet);
        owners.saveAndFlush(owner6);
        owner6 = owners.findById(6).orElseThrow();
        assertThat(owner6.getPets()).hasSize(found + 1);
        assertThat(owner6.getPet("bowser").getId()).isNotNull();
    }

    @Test
    void shouldFindVets() {
        Collection<Vet> all = vets.findAll();
        assertThat(all).hasSize(6);
        Vet douglas = all.stream().filter(v -> v.getId() == 3).findFirst().orElseThrow();
        assertThat(douglas.getLastName()).isEqualTo("Douglas");
        assertThat(douglas.getNrOfSpecialties()).isEqualTo(2);
        assertThat(douglas.getSpecialties().get(0).getName()).isEqualTo("dentistry");
        assertThat(douglas.getSpecialties().get(1).getName()).isEqualTo("surgery");
    }

    @Test
    void shouldAddNewVisitForPet() {
        Owner owner6 = owners.findById(6).orElseThrow();
        Pet pet7 = owner6.getPet(7);
        int found = pet7.getVisits().size();
        Visit visit = new Visit();
        visit.setDescription("test");
        owner6.addVisit(pet7.getId(), visit);
        owners.saveAndFlush(owner6);
        assertThat(owners.findById(6).orElseThrow().getPet(7).getVisits()).hasSize(found + 1)
                .allMatch(v -> v.getId() != null);
    }

    @Test
    void shouldFindVisitsByPetId() {
        Pet pet7 = owners.findById(6).orElseThrow().getPet(7);
        assertThat(pet7.getVisits()).hasSize(2).first().extracting(Visit::getDate).isNotNull();
    }
}
