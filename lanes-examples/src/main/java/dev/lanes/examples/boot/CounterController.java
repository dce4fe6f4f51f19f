package dev.lanes.examples.boot;

import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/** {@code POST /counters/{name}/increment} and {@code GET /counters/{name}}. */
@RestController
@RequestMapping("/counters")
public class CounterController {
    private final CounterService counters;

    public CounterController(CounterService counters) {
        this.counters = counters;
    }

    /** A counter's value. */
    public record Counter(String name, long value) {}

    @PostMapping("/{name}/increment")
    public Counter increment(@PathVariable String name) {
        return new Counter(name, counters.increment(name));
    }

    @GetMapping("/{name}")
    public ResponseEntity<Counter> get(@PathVariable String name) {
        return ResponseEntity.of(counters.value(name).map(v -> new Counter(name, v)));
    }
}
