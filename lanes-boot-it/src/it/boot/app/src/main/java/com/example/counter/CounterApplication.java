package com.example.counter;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

@SpringBootApplication
public class CounterApplication {
    public static void main(String[] args) {
        SpringApplication.run(CounterApplication.class, args);
    }
}
