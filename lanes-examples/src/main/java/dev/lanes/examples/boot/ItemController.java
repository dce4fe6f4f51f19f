package dev.lanes.examples.boot;

import java.net.URI;
import java.util.List;
import org.springframework.http.ResponseEntity;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * A REST API over the {@code item} table with Spring's {@link JdbcClient}, on the primary Lanes
 * database: each statement is one request (reads on a reader connection, writes on the writer
 * lane, grouped with their neighbours).
 */
@RestController
@RequestMapping("/items")
public class ItemController {
    private final JdbcClient jdbc;

    public ItemController(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** An item. */
    public record Item(Long id, String name, int quantity) {}

    @GetMapping
    public List<Item> list() {
        return jdbc.sql("SELECT id, name, quantity FROM item ORDER BY id").query(Item.class).list();
    }

    @GetMapping("/{id}")
    public ResponseEntity<Item> get(@PathVariable long id) {
        return ResponseEntity.of(jdbc.sql("SELECT id, name, quantity FROM item WHERE id = ?")
                .param(id).query(Item.class).optional());
    }

    @PostMapping
    public ResponseEntity<Item> create(@RequestBody Item item) {
        if (item.name() == null || item.name().isBlank()) {
            throw new IllegalArgumentException("an item needs a name");
        }
        long id = jdbc.sql("INSERT INTO item(name, quantity) VALUES (?, ?) RETURNING id")
                .params(item.name(), item.quantity()).query(Long.class).single();
        Item created = new Item(id, item.name(), item.quantity());
        return ResponseEntity.created(URI.create("/items/" + id)).body(created);
    }

    @DeleteMapping("/{id}")
    public ResponseEntity<Void> delete(@PathVariable long id) {
        int deleted = jdbc.sql("DELETE FROM item WHERE id = ?").param(id).update();
        return deleted == 0 ? ResponseEntity.notFound().build() : ResponseEntity.noContent().build();
    }
}
