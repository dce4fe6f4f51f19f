package com.example.clinic.vet;

import static org.mockito.BDDMockito.given;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;

/** A web slice beside the data slices, as PetClinic has them: no database in it at all. */
@WebMvcTest(VetController.class)
class VetControllerTests {
    @Autowired
    MockMvc mvc;

    @MockitoBean
    VetRepository vets;

    @Test
    void showsTheVetsAsJson() throws Exception {
        Vet james = new Vet();
        james.setFirstName("James");
        james.setLastName("Carter");
        given(vets.findAll()).willReturn(List.of(james));
        mvc.perform(get("/vets")).andExpect(status().isOk())
                .andExpect(jsonPath("$[0].lastName").value("Carter"));
    }
}
