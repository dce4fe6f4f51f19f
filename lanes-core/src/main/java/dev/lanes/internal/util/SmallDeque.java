package dev.lanes.internal.util;

import java.util.ArrayDeque;
import java.util.Collections;
import java.util.Iterator;

/**
 * A deque for the queues a database keeps (waiting writes, waiting reads) that are empty nearly
 * all the time in a runtime of many databases: it holds no array until the first element
 * arrives, starts small, and lets its array go when it empties after it had grown ({@link
 * #SHRINK_FROM} elements or more), so that a burst does not leave an idle database holding the
 * burst's array for good. A deque that stays small keeps its array, so a queue that goes from
 * empty to one element and back with every request allocates nothing.
 *
 * <p>Not thread-safe: its owner guards it with its own lock, as it would an {@link ArrayDeque}.
 */
public final class SmallDeque<E> implements Iterable<E> {
    /** Elements the array holds at first; an {@link ArrayDeque}'s default holds 16. */
    private static final int INITIAL = 3;
    /** A deque that held this many at once drops its array once it is empty again. */
    static final int SHRINK_FROM = 16;

    private ArrayDeque<E> elements;
    /** The most elements held at once since {@link #elements} was made. */
    private int peak;

    public boolean isEmpty() {
        return elements == null || elements.isEmpty();
    }

    public int size() {
        return elements == null ? 0 : elements.size();
    }

    public void addLast(E e) {
        grown().addLast(e);
        peak = Math.max(peak, elements.size());
    }

    public void addFirst(E e) {
        grown().addFirst(e);
        peak = Math.max(peak, elements.size());
    }

    public E peekFirst() {
        return elements == null ? null : elements.peekFirst();
    }

    public E peekLast() {
        return elements == null ? null : elements.peekLast();
    }

    public E pollFirst() {
        if (elements == null) {
            return null;
        }
        E e = elements.pollFirst();
        shrinkIfDrained();
        return e;
    }

    public E pollLast() {
        if (elements == null) {
            return null;
        }
        E e = elements.pollLast();
        shrinkIfDrained();
        return e;
    }

    /** Removes the first occurrence of {@code o}. @return whether it was there */
    public boolean remove(Object o) {
        if (elements == null || !elements.remove(o)) {
            return false;
        }
        shrinkIfDrained();
        return true;
    }

    /** Empties the deque and lets its array go. */
    public void clear() {
        elements = null;
        peak = 0;
    }

    /**
     * The elements, first to last; its {@code remove()} removes from the deque. Call {@link
     * #shrinkIfDrained()} after removing through it.
     */
    @Override
    public Iterator<E> iterator() {
        return elements == null ? Collections.emptyIterator() : elements.iterator();
    }

    /** Lets the array go when the deque is empty and had grown. */
    public void shrinkIfDrained() {
        if (elements != null && peak >= SHRINK_FROM && elements.isEmpty()) {
            elements = null;
            peak = 0;
        }
    }

    private ArrayDeque<E> grown() {
        if (elements == null) {
            elements = new ArrayDeque<>(INITIAL);
        }
        return elements;
    }
}
