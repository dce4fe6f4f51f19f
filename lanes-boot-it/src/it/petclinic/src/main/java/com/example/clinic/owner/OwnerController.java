package com.example.clinic.owner;

import java.util.List;
import org.springframework.data.domain.PageRequest;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

@RestController
class OwnerController {
    private final OwnerRepository owners;

    OwnerController(OwnerRepository owners) {
        this.owners = owners;
    }

    record OwnerView(Integer id, String firstName, String lastName, String city,
            List<String> pets) {
        static OwnerView of(Owner owner) {
            return new OwnerView(owner.getId(), owner.getFirstName(), owner.getLastName(),
                    owner.getCity(), owner.getPets().stream().map(Pet::getName).toList());
        }
    }

    record NewOwner(String firstName, String lastName, String address, String city,
            String telephone) {}

    @GetMapping("/owners")
    List<OwnerView> find(@RequestParam(name = "lastName", defaultValue = "") String lastName) {
        return owners.findByLastNameStartingWith(lastName, PageRequest.of(0, 20)).stream()
                .map(OwnerView::of).toList();
    }

    @GetMapping("/owners/{ownerId}")
    OwnerView show(@PathVariable("ownerId") int ownerId) {
        return owners.findById(ownerId).map(OwnerView::of)
                .orElseThrow(() -> new ResponseStatusException(HttpStatus.NOT_FOUND));
    }

    @PostMapping("/owners")
    @ResponseStatus(HttpStatus.CREATED)
    OwnerView create(@RequestBody NewOwner form) {
        Owner owner = new Owner();
        owner.setFirstName(form.firstName());
        owner.setLastName(form.lastName());
        owner.setAddress(form.address());
        owner.setCity(form.city());
        owner.setTelephone(form.telephone());
        return OwnerView.of(owners.save(owner));
    }
}
