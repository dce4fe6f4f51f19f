package dev.lanes.spring.slices;

import org.springframework.data.repository.ListCrudRepository;

public interface LabelRepository extends ListCrudRepository<Label, Long> {}
