package dev.lanes.examples.boot;

import dev.lanes.spring.TenantDatabases;
import java.net.URI;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.List;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Notes of one tenant, each tenant in a database of its own ({@code data/tenants/<id>.db}),
 * created with its schema ({@code tenant/V1__notes.sql}) at its first request. A tenant id that is
 * not a safe file name is refused with 400 before any file is touched.
 */
@RestController
@RequestMapping("/tenants/{tenant}/notes")
public class TenantNotesController {
    private final TenantDatabases tenants;

    public TenantNotesController(TenantDatabases tenants) {
        this.tenants = tenants;
    }

    /** A note. */
    public record Note(Long id, String text, String createdAt) {}

    @GetMapping
    public List<Note> list(@PathVariable String tenant) {
        return tenants.get(tenant).queryAs(Note.class,
                "SELECT id, text, created_at FROM note ORDER BY id");
    }

    @PostMapping
    public ResponseEntity<Note> add(@PathVariable String tenant, @RequestBody Note note) {
        if (note.text() == null || note.text().isBlank()) {
            throw new IllegalArgumentException("a note needs a text");
        }
        Note created = tenants.get(tenant).write(conn -> {
            try (PreparedStatement insert = conn.prepareStatement(
                    "INSERT INTO note(text) VALUES (?) RETURNING id, text, created_at")) {
                insert.setString(1, note.text());
                try (ResultSet rs = insert.executeQuery()) {
                    rs.next();
                    return new Note(rs.getLong(1), rs.getString(2), rs.getString(3));
                }
            }
        });
        return ResponseEntity.created(URI.create("/tenants/" + tenant + "/notes/" + created.id()))
                .body(created);
    }
}
