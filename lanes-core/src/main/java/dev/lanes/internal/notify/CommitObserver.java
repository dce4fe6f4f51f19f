package dev.lanes.internal.notify;

import java.util.Set;

/**
 * Told by the writer lane, on the lane's thread, after each commit that changed rows. It must
 * return at once: hand anything slow to another thread.
 */
public interface CommitObserver {
    CommitObserver NONE = new CommitObserver() {
        @Override
        public boolean tracksTables() {
            return false;
        }

        @Override
        public void committed(Set<String> tables) {}
    };

    /**
     * Whether the lane should record which tables each transaction changes (an update hook,
     * which costs a call per changed row). Read at the start of every transaction.
     */
    boolean tracksTables();

    /**
     * A transaction that changed rows committed.
     *
     * @param tables the tables it changed (a fresh, unshared set), or empty when {@link
     *     #tracksTables()} was false when it began
     */
    void committed(Set<String> tables);
}
