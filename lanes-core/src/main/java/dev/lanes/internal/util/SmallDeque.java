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
 * (Each method reads the array's field once, so a stray read without the lock sees a stale
 * answer, as with an {@code ArrayDeque}, rather than a null.)
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
        ArrayDeque<E> d = elements;
        return d == null || d.isEmpty();
    }

    public int size() {
        ArrayDeque<E> d = elements;
        return d == null ? 0 : d.size();
    }

    public void addLast(E e) {
        ArrayDeque<E> d = grown();
        d.addLast(e);
        peak = Math.max(peak, d.size());
    }

    public void addFirst(E e) {
        ArrayDeque<E> d = grown();
        d.addFirst(e);
        peak = Math.max(peak, d.size());
    }

    public E peekFirst() {
        ArrayDeque<E> d = elements;
        return d == null ? null : d.peekFirst();
    }

    public E peekLast() {
        ArrayDeque<E> d = elements;
        return d == null ? null : d.peekLast();
    }

    public E pollFirst() {
        ArrayDeque<E> d = elements;
        if (d == null) {
            return null;
        }
        E e = d.pollFirst();
        shrinkIfDrained();
        return e;
    }

    /** Removes the first occurrence of {@code o}. @return whether it was there */
    public boolean remove(Object o) {
        ArrayDeque<E> d = elements;
        if (d == null || !d.remove(o)) {
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
        ArrayDeque<E> d = elements;
        return d == null ? Collections.emptyIterator() : d.iterator();
    }

    /** Lets the array go when the deque is empty and had grown. */
    public void shrinkIfDrained() {
        ArrayDeque<E> d = elements;
        if (d != null && peak >= SHRINK_FROM && d.isEmpty()) {
            elements = null;
            peak = 0;
        }
    }

    /** Whether it holds an array now; for tests of its memory. */
    boolean holdsArray() {
        return elements != null;
    }

    private ArrayDeque<E> grown() {
        ArrayDeque<E> d = elements;
        if (d == null) {
            d = new ArrayDeque<>(INITIAL);
            elements = d;
        }
        return d;
    }
}
