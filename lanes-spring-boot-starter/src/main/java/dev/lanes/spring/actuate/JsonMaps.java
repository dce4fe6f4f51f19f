package dev.lanes.spring.actuate;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Turns the Lanes diagnostics records into plain maps, lists, strings, numbers and booleans, so
 * that any JSON mapper writes them the same way: a record becomes a map of its components in
 * order, an empty {@link Optional} {@code null}, a {@link Duration} or an {@link Instant} its
 * ISO-8601 text, a {@link Path} its text, an enum its name.
 */
final class JsonMaps {
    private JsonMaps() {}

    static Object of(Object value) {
        if (value == null || value instanceof Number || value instanceof Boolean
                || value instanceof String) {
            return value;
        }
        if (value instanceof Optional<?> optional) {
            return optional.map(JsonMaps::of).orElse(null);
        }
        if (value instanceof Duration || value instanceof Instant || value instanceof Path) {
            return value.toString();
        }
        if (value instanceof Enum<?> e) {
            return e.name();
        }
        if (value instanceof Collection<?> items) {
            var list = new ArrayList<>(items.size());
            for (Object item : items) {
                list.add(of(item));
            }
            return list;
        }
        if (value instanceof Record record) {
            return record(record);
        }
        return value.toString();
    }

    static Map<String, Object> record(Record record) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (RecordComponent c : record.getClass().getRecordComponents()) {
            try {
                map.put(c.getName(), of(c.getAccessor().invoke(record)));
            } catch (IllegalAccessException | InvocationTargetException e) {
                throw new IllegalStateException("cannot read " + c + " of "
                        + record.getClass().getName(), e);
            }
        }
        return map;
    }
}
