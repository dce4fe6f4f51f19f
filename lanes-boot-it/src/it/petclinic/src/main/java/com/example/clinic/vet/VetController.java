package com.example.clinic.vet;

import java.util.List;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

@RestController
class VetController {
    private final VetRepository vets;

    VetController(VetRepository vets) {
        this.vets = vets;
    }

    record VetView(String firstName, String lastName, List<String> specialties) {}

    @GetMapping("/vets")
    List<VetView> showVets() {
        return vets.findAll().stream()
                .map(v -> new VetView(v.getFirstName(), v.getLastName(),
                        v.getSpecialties().stream().map(Specialty::getName).toList()))
                .toList();
    }
}
