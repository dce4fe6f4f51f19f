package com.example.clinic.vet;

import java.util.Collection;
import org.springframework.data.domain.Page;
import org.springframework.data.domain.Pageable;
import org.springframework.data.repository.Repository;
import org.springframework.transaction.annotation.Transactional;

public interface VetRepository extends Repository<Vet, Integer> {

    @Transactional(readOnly = true)
    Collection<Vet> findAll();

    @Transactional(readOnly = true)
    Page<Vet> findAll(Pageable pageable);
}
