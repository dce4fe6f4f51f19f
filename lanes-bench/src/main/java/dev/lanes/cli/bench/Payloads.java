package dev.lanes.cli.bench;

import java.util.Random;

/**
 * The text the bench writes: about 100 bytes per row, fixed per seed, since its content does not
 * matter, only its size.
 */
final class Payloads {
    static final int CHARS = 100;

    private Payloads() {}

    static String of(long seed) {
        Random random = new Random(seed);
        StringBuilder s = new StringBuilder(CHARS);
        for (int i = 0; i < CHARS; i++) {
            s.append((char) ('a' + random.nextInt(26)));
        }
        return s.toString();
    }
}
