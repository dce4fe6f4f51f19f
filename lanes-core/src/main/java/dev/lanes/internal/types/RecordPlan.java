package dev.lanes.internal.types;

import dev.lanes.MappingException;
import dev.lanes.Row;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Constructor;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.TypeVariable;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * How rows become one record type: its components, a converter for each, and its canonical
 * constructor as a method handle. Built once per record type ({@link #of}, a {@link ClassValue}),
 * so mapping a row costs no reflection.
 *
 * <p>Components find their columns by name: a column whose label equals the component's name
 * ignoring case, else one that equals it ignoring case and underscores ({@code created_at} for
 * {@code createdAt}). Two columns that match one component equally well are an error; columns no
 * component asks for are ignored.
 *
 * <p>Concurrency: a plan is shared by every thread. Its fields are final and set in the
 * constructor, except {@link #last}, the binding to the last column labels seen. A binding is
 * immutable, so a racy read of {@code last} sees either an older binding or a newer one, each
 * complete; one whose labels differ from the row's is not used.
 */
public final class RecordPlan<R> {
    private static final ClassValue<RecordPlan<?>> PLANS = new ClassValue<>() {
        @Override
        protected RecordPlan<?> computeValue(Class<?> type) {
            return new RecordPlan<>(type);
        }
    };

    private final Class<R> type;
    private final String[] names;
    /** The component names without underscores, lower case, for the loose match. */
    private final String[] looseNames;
    private final Converter<?>[] converters;
    /** The canonical constructor, typed {@code (Object[]) -> Object}. */
    private final MethodHandle constructor;
    private volatile Binding last;

    private RecordPlan(Class<R> type) {
        this.type = type;
        RecordComponent[] components = type.getRecordComponents();
        int n = components.length;
        names = new String[n];
        looseNames = new String[n];
        converters = new Converter<?>[n];
        Class<?>[] types = new Class<?>[n];
        for (int i = 0; i < n; i++) {
            RecordComponent c = components[i];
            names[i] = c.getName();
            looseNames[i] = loose(c.getName());
            types[i] = c.getType();
            converters[i] = converter(type, c);
        }
        try {
            Constructor<R> ctor = type.getDeclaredConstructor(types);
            if (!ctor.trySetAccessible()) {
                throw new IllegalArgumentException("record " + type.getName() + ": its canonical "
                        + "constructor is not accessible to Lanes; make the record public in an "
                        + "exported package, or open its package to Lanes' module");
            }
            constructor = MethodHandles.lookup().unreflectConstructor(ctor)
                    .asSpreader(Object[].class, n)
                    .asType(MethodType.methodType(Object.class, Object[].class));
        } catch (NoSuchMethodException | IllegalAccessException e) {
            throw new IllegalArgumentException("record " + type.getName() + ": its canonical "
                    + "constructor cannot be called: " + e, e);
        }
    }

    /**
     * The plan of {@code type}, built on first use and then cached.
     *
     * @throws IllegalArgumentException when {@code type} is not a record, or a component has a
     *     type no column can hold
     */
    @SuppressWarnings("unchecked")
    public static <R> RecordPlan<R> of(Class<R> type) {
        if (type == null) {
            throw new NullPointerException("recordType");
        }
        if (!type.isRecord()) {
            throw new IllegalArgumentException(type.getName() + " is not a record; map it with a "
                    + "RowMapper");
        }
        return (RecordPlan<R>) PLANS.get(type);
    }

    private static Converter<?> converter(Class<?> record, RecordComponent c) {
        Class<?> t = c.getType();
        boolean plain = c.getGenericType() instanceof Class;
        if (plain && Converters.supports(t)) {
            return Converters.forType(t);
        }
        String why = c.getGenericType() instanceof ParameterizedType
                ? "a generic type, which one column cannot hold; map it with a RowMapper"
                : c.getGenericType() instanceof TypeVariable
                ? "a type variable, whose class Lanes cannot know; map it with a RowMapper"
                : t.isRecord() ? "a record, and records are not nested; map it with a RowMapper"
                : "not a type a column can be read as; the types are " + Converters.SUPPORTED;
        throw new IllegalArgumentException("record " + record.getName() + ": component '"
                + c.getName() + "' has type " + c.getGenericType().getTypeName() + ", " + why);
    }

    private static String loose(String name) {
        return name.replace("_", "").toLowerCase(Locale.ROOT);
    }

    /** Maps one row, finding its columns again only when its labels differ from the last. */
    public R map(Row row) {
        return bind(row.columns()).map(row);
    }

    /** Maps the rows of one result, which share their column labels. */
    public List<R> mapResult(List<Row> rows) {
        List<R> out = new ArrayList<>(rows.size());
        if (!rows.isEmpty()) {
            Binding b = bind(rows.get(0).columns());
            for (Row row : rows) {
                out.add(b.map(row));
            }
        }
        return out;
    }

    private Binding bind(List<String> columns) {
        Binding b = last;
        if (b != null && sameLabels(b.columns, columns)) {
            return b;
        }
        b = new Binding(List.copyOf(columns), indexes(columns));
        last = b;
        return b;
    }

    /** {@code a.equals(b)} without an iterator: this runs once per row a mapper maps. */
    private static boolean sameLabels(List<String> a, List<String> b) {
        int n = a.size();
        if (b.size() != n) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            if (!a.get(i).equals(b.get(i))) {
                return false;
            }
        }
        return true;
    }

    private int[] indexes(List<String> columns) {
        int[] indexes = new int[names.length];
        for (int i = 0; i < names.length; i++) {
            int exact = -1;
            int loose = -1;
            int looseAgain = -1;
            for (int j = 0; j < columns.size(); j++) {
                String label = columns.get(j);
                if (label.equalsIgnoreCase(names[i])) {
                    if (exact >= 0) {
                        throw ambiguous(i, columns, exact, j);
                    }
                    exact = j;
                } else if (loose(label).equals(looseNames[i])) {
                    if (loose >= 0 && looseAgain < 0) {
                        looseAgain = j;
                    }
                    loose = loose < 0 ? j : loose;
                }
            }
            if (exact < 0 && looseAgain >= 0) {
                throw ambiguous(i, columns, loose, looseAgain);
            }
            if (exact < 0 && loose < 0) {
                String snake = snake(names[i]);
                throw new MappingException("record " + type.getSimpleName() + ": no column for "
                        + "component '" + names[i] + "' (a column named " + names[i]
                        + (snake.equals(names[i]) ? "" : " or " + snake) + "); the result has "
                        + columns);
            }
            indexes[i] = exact >= 0 ? exact : loose;
        }
        return indexes;
    }

    private MappingException ambiguous(int component, List<String> columns, int a, int b) {
        return new MappingException("record " + type.getSimpleName() + ": component '"
                + names[component] + "' matches both column " + a + " ('" + columns.get(a)
                + "') and column " + b + " ('" + columns.get(b) + "') of " + columns
                + "; alias one of them");
    }

    /** {@code createdAt} as {@code created_at}, for the error message. */
    private static String snake(String camel) {
        StringBuilder b = new StringBuilder(camel.length() + 4);
        for (int i = 0; i < camel.length(); i++) {
            char c = camel.charAt(i);
            if (Character.isUpperCase(c) && i > 0) {
                b.append('_');
            }
            b.append(Character.toLowerCase(c));
        }
        return b.toString();
    }

    /** The plan applied to one set of column labels. Immutable. */
    private final class Binding {
        final List<String> columns;
        final int[] indexes;

        Binding(List<String> columns, int[] indexes) {
            this.columns = columns;
            this.indexes = indexes;
        }

        @SuppressWarnings("unchecked")
        R map(Row row) {
            Object[] args = new Object[indexes.length];
            int i = 0;
            try {
                for (; i < args.length; i++) {
                    args[i] = converters[i].convert(row.get(indexes[i]), columns.get(indexes[i]));
                }
            } catch (MappingException e) {
                throw new MappingException("record " + type.getSimpleName() + ", component '"
                        + names[i] + "': " + e.getMessage(), e);
            }
            try {
                return (R) (Object) constructor.invokeExact(args);
            } catch (RuntimeException | Error e) {
                throw e; // the record's own validation, as it threw it
            } catch (Throwable e) {
                throw new IllegalStateException("record " + type.getName() + ": its constructor "
                        + "threw " + e, e);
            }
        }
    }
}
