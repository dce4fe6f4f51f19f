package dev.lanes.spring.persistence;

import org.springframework.data.annotation.Id;
import org.springframework.data.relational.core.mapping.Table;

/** A Spring Data JDBC aggregate. */
@Table("note")
public record Note(@Id Long id, String text) {}
