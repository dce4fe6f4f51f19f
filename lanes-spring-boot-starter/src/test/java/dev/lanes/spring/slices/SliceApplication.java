package dev.lanes.spring.slices;

import org.springframework.boot.autoconfigure.SpringBootApplication;

/** The application the slice tests of this package find, as a test slice finds an application's. */
@SpringBootApplication
public class SliceApplication {}
