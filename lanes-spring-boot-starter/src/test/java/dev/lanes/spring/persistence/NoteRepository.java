package dev.lanes.spring.persistence;

import java.util.List;
import org.springframework.data.domain.Pageable;
import org.springframework.data.repository.ListCrudRepository;
import org.springframework.data.repository.PagingAndSortingRepository;

public interface NoteRepository extends ListCrudRepository<Note, Long>,
        PagingAndSortingRepository<Note, Long> {
    List<Note> findByTextStartingWith(String prefix, Pageable page);
}
