package dev.lanes.fleet.internal;

import dev.lanes.Database;
import dev.lanes.Transaction;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * A fleet tenant's {@link Database} at {@code REPLICATED} durability: every call that may write
 * (a statement, a batch, a script, a body, an uncork, an interactive transaction's commit)
 * returns only once the tenant's replica holds what it committed ({@link
 * ReplicationConfirmation#await}); an asynchronous write's future completes then. Calls that only
 * read or look pass straight through. {@code dataSource()} is the local one: its commits are
 * acknowledged at {@code LOCAL} durability.
 *
 * <p>Thread-safety: stateless; the waits are {@link ReplicationConfirmation}'s.
 */
final class ReplicatedDatabase implements InvocationHandler {
    private static final Set<String> PASS = Set.of("path", "reading", "query", "queryAs", "queryOne",
            "queryOneAs", "read", "readAsync", "stream",
            "onChange", "changeVersion", "checkpoint", "backup", "cork", "dataSource", "profiled",
            "state", "whenReady", "whenTerminated", "isTransactionOpen",
            "onTransactionStateChange", "diagnostics",
            "close", "shutdownNow", "toString", "hashCode", "equals", "isOpen", "rollback");

    private final ReplicationConfirmation confirmation;
    private final TenantSlot slot;
    private final Object target;
    private final Duration bound;
    private final Executor async;

    private ReplicatedDatabase(ReplicationConfirmation confirmation, TenantSlot slot,
            Object target, Duration bound, Executor async) {
        this.confirmation = confirmation;
        this.slot = slot;
        this.target = target;
        this.bound = bound;
        this.async = async;
    }

    static Database of(ReplicationConfirmation confirmation, TenantSlot slot, Duration bound,
            Executor async) {
        return (Database) Proxy.newProxyInstance(Database.class.getClassLoader(),
                new Class<?>[] {Database.class},
                new ReplicatedDatabase(confirmation, slot, slot.db(), bound, async));
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
        Object result;
        try {
            result = method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
        String name = method.getName();
        if (PASS.contains(name) || method.getDeclaringClass() == Object.class) {
            return result;
        }
        if (name.equals("begin") && result instanceof Transaction t) {
            return Proxy.newProxyInstance(Transaction.class.getClassLoader(),
                    new Class<?>[] {Transaction.class},
                    new ReplicatedDatabase(confirmation, slot, t, bound, async));
        }
        if (target instanceof Transaction && !name.equals("commit")) {
            return result; // statements of an open transaction: its commit waits
        }
        if (result instanceof CompletableFuture<?> f) {
            return f.thenApplyAsync(v -> {
                confirmation.await(slot, bound);
                return v;
            }, async);
        }
        confirmation.await(slot, bound);
        return result;
    }
}
