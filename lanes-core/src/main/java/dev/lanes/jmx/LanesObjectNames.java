package dev.lanes.jmx;

import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;

/**
 * The {@link ObjectName}s under which a runtime registers its management beans; see the
 * {@linkplain dev.lanes.jmx package}. Values that an object name does not allow unquoted are
 * quoted with {@link ObjectName#quote(String)}.
 */
public final class LanesObjectNames {
    /** The domain of every Lanes bean. */
    public static final String DOMAIN = "dev.lanes";

    private LanesObjectNames() {}

    /** {@code dev.lanes:type=Runtime,name=<runtime>}. */
    public static ObjectName runtime(String runtime) {
        return of(DOMAIN + ":type=Runtime,name=" + value(runtime));
    }

    /** {@code dev.lanes:type=Database,runtime=<runtime>,name=<database>}. */
    public static ObjectName database(String runtime, String database) {
        return of(DOMAIN + ":type=Database,runtime=" + value(runtime) + ",name="
                + value(database));
    }

    /**
     * {@code value} as an object name's key value: as it is, or quoted when it holds a character
     * that is not allowed unquoted ({@code , = : " * ?}, a line break) or is empty.
     */
    static String value(String value) {
        if (value.isEmpty()) {
            return ObjectName.quote(value);
        }
        for (int i = 0; i < value.length(); i++) {
            switch (value.charAt(i)) {
                case ',':
                case '=':
                case ':':
                case '"':
                case '*':
                case '?':
                case '\n':
                    return ObjectName.quote(value);
                default:
                    break;
            }
        }
        return value;
    }

    private static ObjectName of(String name) {
        try {
            return new ObjectName(name);
        } catch (MalformedObjectNameException e) {
            throw new IllegalArgumentException("not a valid object name: " + name, e);
        }
    }
}
