package dev.mailrun.app.cli;

/** A count with its noun in the right number: "1 row", "2 rows", "0 rows". */
final class Counted {

    private Counted() {
    }

    static String of(long n, String noun) {
        return n + " " + (n == 1 ? noun : noun + "s");
    }
}
