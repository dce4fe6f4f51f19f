package dev.lanes.spring.slices;

import org.springframework.data.annotation.Id;
import org.springframework.data.relational.core.mapping.Table;

/** A Spring Data JDBC aggregate of {@code slices/schema.sql}. */
@Table("label")
public record Label(@Id Long id, String label) {}
