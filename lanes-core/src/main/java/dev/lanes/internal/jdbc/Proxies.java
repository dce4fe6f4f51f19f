package dev.lanes.internal.jdbc;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Proxy;

/**
 * Makes the dynamic proxies of the data source's statements, result sets and metadata with the
 * proxy class's constructor found once: {@link Proxy#newProxyInstance} looks the class up on
 * every call, which cost as much as the rest of a point read's JDBC layer. Stateless once built;
 * thread-safe.
 */
final class Proxies<T> {
    private final Class<T> type;
    private final MethodHandle constructor;

    private Proxies(Class<T> type) {
        this.type = type;
        Class<?> proxyClass = Proxy.newProxyInstance(Proxies.class.getClassLoader(),
                new Class<?>[] {type}, (proxy, method, args) -> null).getClass();
        try {
            constructor = MethodHandles.publicLookup().findConstructor(proxyClass,
                    MethodType.methodType(void.class, InvocationHandler.class));
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("no constructor on the proxy class of "
                    + type.getName(), e);
        }
    }

    /** The factory of proxies implementing {@code type}. */
    static <T> Proxies<T> of(Class<T> type) {
        return new Proxies<>(type);
    }

    /** A new proxy whose calls go to {@code handler}. */
    T create(InvocationHandler handler) {
        try {
            return type.cast(constructor.invoke(handler));
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("a proxy constructor failed", t);
        }
    }
}
