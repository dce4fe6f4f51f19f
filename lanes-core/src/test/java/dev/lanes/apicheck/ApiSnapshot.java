package dev.lanes.apicheck;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.Member;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The public API of one module, rendered from its compiled classes (every public or protected
 * type of its published packages, and their public and protected constructors, methods and
 * fields, with generic signatures) and compared with the module's committed {@code
 * api/<module>.api}. A change to the API shows as a change of that file in review; a change made
 * on purpose rewrites it with {@code -Dlanes.api.update=true}. Every published module's {@code
 * PublicApiSnapshotTest} calls {@link #check}; lanes-core ships this class in its test jar.
 */
public final class ApiSnapshot {
    private ApiSnapshot() {}

    /**
     * Renders the published packages of the module that holds {@code anchor} and asserts that
     * they match {@code api/<module>.api} in the module's directory (the tests' working
     * directory), rewriting the file first when {@code lanes.api.update} is set.
     */
    public static void check(String module, Class<?> anchor, List<String> published)
            throws IOException, URISyntaxException {
        Path snapshot = Path.of("api", module + ".api");
        String rendered = render(anchor, published);
        if (Boolean.getBoolean("lanes.api.update")) {
            Files.createDirectories(snapshot.getParent());
            Files.writeString(snapshot, rendered, StandardCharsets.UTF_8);
        }
        String committed = Files.exists(snapshot)
                ? Files.readString(snapshot, StandardCharsets.UTF_8) : "";
        assertThat(rendered)
                .as("the public API differs from %s/%s. If the change is meant, rewrite the file "
                        + "with: mvn -o -pl %s test -Dtest=PublicApiSnapshotTest "
                        + "-Dlanes.api.update=true, and commit it (a break of a released API "
                        + "also needs a CHANGELOG entry)", module, snapshot, module)
                .isEqualTo(committed);
    }

    private static String render(Class<?> anchor, List<String> published) throws IOException,
            URISyntaxException {
        Path classes = Path.of(anchor.getProtectionDomain().getCodeSource().getLocation()
                .toURI());
        TreeMap<String, List<String>> types = new TreeMap<>();
        for (String pkg : published) {
            Path dir = classes.resolve(pkg.replace('.', '/'));
            try (Stream<Path> files = Files.list(dir)) {
                for (Path file : files.filter(f -> f.toString().endsWith(".class")).toList()) {
                    String simple = file.getFileName().toString().replace(".class", "");
                    Class<?> type = load(anchor, pkg + "." + simple);
                    if (type != null && visible(type)) {
                        types.put(type.getName(), members(type));
                    }
                }
            }
        }
        StringBuilder out = new StringBuilder();
        types.forEach((name, lines) -> {
            lines.forEach(line -> out.append(line).append('\n'));
            out.append('\n');
        });
        return out.toString();
    }

    private static Class<?> load(Class<?> anchor, String name) {
        if (name.endsWith("package-info") || name.endsWith("module-info")) {
            return null;
        }
        try {
            return Class.forName(name, false, anchor.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new AssertionError(e);
        }
    }

    /** Public, or protected in a public type, all the way out; never synthetic or anonymous. */
    private static boolean visible(Class<?> type) {
        for (Class<?> t = type; t != null; t = t.getDeclaringClass()) {
            if (t.isSynthetic() || t.isAnonymousClass() || t.isLocalClass()
                    || !exposed(t.getModifiers())) {
                return false;
            }
        }
        return true;
    }

    private static boolean exposed(int modifiers) {
        return Modifier.isPublic(modifiers) || Modifier.isProtected(modifiers);
    }

    /** The type's line, then one sorted line per exposed member. */
    private static List<String> members(Class<?> type) {
        List<String> lines = new ArrayList<>();
        for (Constructor<?> c : type.getDeclaredConstructors()) {
            if (exposed(c.getModifiers()) && !c.isSynthetic()) {
                lines.add("  " + signature(c, type));
            }
        }
        for (Method m : type.getDeclaredMethods()) {
            if (exposed(m.getModifiers()) && !m.isSynthetic() && !m.isBridge()) {
                lines.add("  " + signature(m, type));
            }
        }
        for (Field f : type.getDeclaredFields()) {
            if (exposed(f.getModifiers()) && !f.isSynthetic()) {
                lines.add("  " + modifiers(f.getModifiers()) + f.getGenericType().getTypeName()
                        + " " + f.getName());
            }
        }
        lines.sort(null);
        lines.add(0, header(type));
        return lines;
    }

    private static String header(Class<?> type) {
        int mods = type.getModifiers() & ~Modifier.INTERFACE;
        String kind = type.isAnnotation() ? "@interface" : type.isInterface() ? "interface"
                : type.isEnum() ? "enum" : type.isRecord() ? "record" : "class";
        if (type.isInterface() || type.isEnum() || type.isRecord()) {
            mods &= ~Modifier.ABSTRACT;
            mods &= ~(type.isEnum() || type.isRecord() ? Modifier.FINAL : 0);
        }
        StringBuilder line = new StringBuilder(modifiers(mods))
                .append(type.isSealed() ? "sealed " : "").append(kind).append(' ')
                .append(type.getName()).append(typeParameters(type.getTypeParameters()));
        Type superclass = type.getGenericSuperclass();
        if (superclass != null && superclass != Object.class && !type.isEnum()
                && !type.isRecord()) {
            line.append(" extends ").append(superclass.getTypeName());
        }
        Type[] interfaces = type.getGenericInterfaces();
        if (interfaces.length > 0 && !type.isAnnotation()) {
            line.append(type.isInterface() ? " extends " : " implements ")
                    .append(Arrays.stream(interfaces).map(Type::getTypeName)
                            .collect(Collectors.joining(", ")));
        }
        return line.toString();
    }

    private static String signature(Executable e, Class<?> owner) {
        String generic = e.toGenericString();
        // "… dev.lanes.Database.diagnostics()" reads "… diagnostics()" under its type
        String qualified = owner.getName() + "." + ((Member) e).getName() + "(";
        if (e instanceof Method) {
            return generic.replace(qualified, e.getName() + "(");
        }
        return generic;
    }

    private static String typeParameters(TypeVariable<?>[] parameters) {
        if (parameters.length == 0) {
            return "";
        }
        return Arrays.stream(parameters).map(p -> p.getName() + boundsOf(p))
                .collect(Collectors.joining(", ", "<", ">"));
    }

    private static String boundsOf(TypeVariable<?> p) {
        Type[] bounds = p.getBounds();
        if (bounds.length == 1 && bounds[0] == Object.class) {
            return "";
        }
        return " extends " + Arrays.stream(bounds).map(Type::getTypeName)
                .collect(Collectors.joining(" & "));
    }

    private static String modifiers(int modifiers) {
        String text = Modifier.toString(modifiers & (Modifier.PUBLIC | Modifier.PROTECTED
                | Modifier.ABSTRACT | Modifier.STATIC | Modifier.FINAL));
        return text.isEmpty() ? "" : text + " ";
    }
}
