package dev.mailrun.csv;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PushbackReader;
import java.io.Reader;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.channels.ReadableByteChannel;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;

/**
 * CSV files the way mailrun reads every one (recipient lists, suppression lists): RFC 4180 with a
 * header row, strict UTF-8 (a byte sequence that is not UTF-8 is an error, never a replacement
 * character), a leading byte order mark skipped, blank lines between records ignored, and every
 * record placed on the physical line it starts on.
 */
public final class CsvFiles {

    private static final char BOM = '\uFEFF';

    private CsvFiles() {}

    /** A parser over {@code file}, its header row read; close it when done. */
    public static CSVParser open(Path file) throws IOException {
        Reader reader = new InputStreamReader(Files.newInputStream(file), strictUtf8());
        CSVFormat format = CSVFormat.RFC4180.builder()
                .setHeader()
                .setSkipHeaderRecord(true)
                .setAllowMissingColumnNames(true)
                .setIgnoreSurroundingSpaces(false)
                .setIgnoreEmptyLines(true)
                .get();
        return CSVParser.builder().setReader(skipBom(reader)).setFormat(format).get();
    }

    /**
     * The physical line {@code record} starts on, given the line the parser says it ends on. Blank
     * lines before a record are skipped and a quoted value may span lines, so counting back from the
     * end is the only exact way: the parser counts CR, LF and CR LF as one line break each, and so
     * does this.
     */
    public static long startLine(CSVRecord record, long endLine) {
        long breaks = 0;
        for (int v = 0; v < record.size(); v++) {
            String value = record.get(v);
            for (int i = 0; i < value.length(); i++) {
                char c = value.charAt(i);
                if (c == '\n' || c == '\r' && (i + 1 == value.length() || value.charAt(i + 1) != '\n')) {
                    breaks++;
                }
            }
        }
        return endLine - breaks;
    }

    /**
     * Why the record after line {@code lastComplete} (the end of the last record read whole) is not
     * valid CSV, named by the line it starts on. The parser reports where it gave up, which after a
     * quote that does not close where it should is a later line — the rest of the file was read as
     * one quoted value — so that line is shown as the parser's, after the one to look at.
     *
     * @param parserMessage the parser's message, e.g. "EOF reached before encapsulated token finished"
     */
    public static String invalidRecord(Path file, long lastComplete, String parserMessage) throws IOException {
        String detail = parserMessage == null ? "unreadable" : parserMessage.lines().findFirst().orElse(parserMessage);
        boolean quote = detail.contains("encapsulated token");
        return "the record starting on line " + firstNonEmptyLineAfter(file, lastComplete)
                + (quote ? " has a quote that does not close where it should" : " cannot be read")
                + " (the parser stopped with: " + detail + ")";
    }

    /** The first line after {@code line} that is not empty (the parser skips empty lines between records). */
    private static long firstNonEmptyLineAfter(Path file, long line) throws IOException {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(Files.newInputStream(file), strictUtf8()))) {
            long n = 0;
            String text;
            while ((text = r.readLine()) != null) {
                n++;
                if (n > line && !text.isEmpty() && !(n == 1 && text.equals(String.valueOf(BOM)))) {
                    return n;
                }
            }
            return line + 1;
        }
    }

    /** Why a file the decoder refused is not read, naming the line of its first byte sequence that is not UTF-8. */
    public static String notUtf8(Path file) throws IOException {
        long line = firstMalformedLine(file);
        return "not UTF-8 text" + (line > 0 ? " at line " + line : "");
    }

    /**
     * The line holding the first byte sequence that is not UTF-8, counted from the bytes: the
     * parser decodes ahead of the record it is on, so its line count cannot say. 0 when there is none.
     */
    public static long firstMalformedLine(Path file) throws IOException {
        CharsetDecoder decoder = strictUtf8();
        ByteBuffer in = ByteBuffer.allocate(1 << 16);
        CharBuffer out = CharBuffer.allocate(1 << 16);
        long line = 1;
        boolean end = false;
        try (ReadableByteChannel channel = Files.newByteChannel(file)) {
            while (true) {
                end = end || channel.read(in) < 0;
                in.flip();
                int from = in.position();
                CoderResult result = decoder.decode(in, out, end);
                for (int i = from; i < in.position(); i++) {
                    line += in.get(i) == '\n' ? 1 : 0;
                }
                if (result.isError()) {
                    return line;
                }
                out.clear();
                if (end && !in.hasRemaining()) {
                    return 0;
                }
                in.compact();
            }
        }
    }

    private static CharsetDecoder strictUtf8() {
        return StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
    }

    private static Reader skipBom(Reader reader) throws IOException {
        PushbackReader r = new PushbackReader(new BufferedReader(reader, 1 << 16), 1);
        int first = r.read();
        if (first != -1 && first != BOM) {
            r.unread(first);
        }
        return r;
    }
}
