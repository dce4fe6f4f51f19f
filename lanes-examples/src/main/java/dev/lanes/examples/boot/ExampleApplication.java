package dev.lanes.examples.boot;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * A small web application on Lanes through {@code lanes-spring-boot-starter}: a REST API over one
 * table with {@code JdbcClient} ({@link ItemController}), a {@code @Transactional} read-then-write
 * ({@link CounterService}) and a database per tenant ({@link TenantNotesController}). Its
 * configuration is {@code application.properties}; run it with {@code java -jar
 * lanes-examples/target/lanes-examples-0.1.0-SNAPSHOT.jar} and try {@code curl -X POST
 * localhost:8080/counters/visits/increment}.
 */
@SpringBootApplication
public class ExampleApplication {
    public static void main(String[] args) {
        SpringApplication.run(ExampleApplication.class, args);
    }
}
