package com.example.counter;

import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

@RestController
public class CounterController {
    private final CounterService counters;

    public CounterController(CounterService counters) {
        this.counters = counters;
    }

    @PostMapping("/entries")
    @ResponseStatus(HttpStatus.CREATED)
    public void addEntry(@RequestParam("client") int client, @RequestParam("seq") int seq) {
        counters.addEntry(client, seq);
    }

    @PostMapping("/counters/{name}/increment")
    public long increment(@PathVariable("name") String name) {
        return counters.increment(name);
    }
}
