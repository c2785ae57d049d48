// Generates the Unicode tables of the JDK that runs it, as java.util.regex.Pattern sees them with
// the device's flags, for menuctl's Java-regex evaluator (src/classify/generated/java-unicode.ts).
//
//   java --add-opens java.base/java.lang=ALL-UNNAMED scripts/java/PropertyTables.java > out.json
//
// Run it with Java 17 (the device's reference). Output, one JSON object:
//   java           the JDK version that produced it
//   exact          names \p{...} accepts with exactly this spelling (Pattern -> CharPredicates.forProperty)
//   isUpper        names accepted after "Is" once upper-cased (CharPredicates.forUnicodeProperty)
//   scripts        script names and aliases, upper-cased (Character.UnicodeScript.forName)
//   blocks         block lookup keys, upper-cased (Character.UnicodeBlock.forName)
//   sets           every distinct code point set, as ranges "lo-hi,lo-hi" in hex
//   exactSet       name -> [set index without CASE_INSENSITIVE, set index with it]
//   isUpperSet     same for the "Is" names
//   scriptSet      canonical script name -> set index; scriptOf: alias -> canonical name
//   blockSet       canonical block name -> set index; blockOf: key -> canonical name
//   names          explicit character names "HEX NAME" lines (Character.getName), the others being
//                  "<BLOCK NAME> <HEX>" for assigned code points (algorithmic, rebuilt from blocks)
// Every set is read back through Pattern itself (a find() over every code point), so the tables are
// what the regex engine does, not a re-implementation of it.
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.*;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

public class PropertyTables {
    static final List<String> sets = new ArrayList<>();
    static final Map<String, Integer> setIndex = new HashMap<>();

    public static void main(String[] args) throws Exception {
        StringBuilder out = new StringBuilder("{\n");
        out.append("\"java\":").append(q(System.getProperty("java.version"))).append(",\n");

        // Names accepted verbatim: probe every 1-2 letter name (categories), the POSIX names, and
        // "java" + every Character.isXxx(int) predicate. Keep those Pattern compiles.
        TreeSet<String> candidates = new TreeSet<>();
        String letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz&_";
        for (char a : letters.toCharArray()) {
            candidates.add("" + a);
            for (char b : letters.toCharArray()) {
                candidates.add("" + a + b);
            }
        }
        for (String s : new String[] {"ASCII", "Alnum", "Alpha", "Blank", "Cntrl", "Digit", "Graph", "Lower", "Print",
                "Punct", "Space", "Upper", "XDigit", "L1", "all", "LD", "LC", "word", "Word"}) candidates.add(s);
        for (Method m : Character.class.getMethods()) {
            if (Modifier.isStatic(m.getModifiers()) && m.getName().startsWith("is") && m.getParameterCount() == 1) {
                candidates.add("java" + m.getName().substring(2));
            }
        }
        TreeSet<String> exact = new TreeSet<>();
        for (String c : candidates) {
            // "Is..."/"In..." and "x=y" take other paths (below); only forProperty's own names here.
            if (c.startsWith("Is") || c.startsWith("In") || c.contains("=")) continue;
            if (compiles("\\p{" + c + "}")) exact.add(c);
        }

        // Names after "Is", upper-cased: Unicode binary properties (probe the property aliases of
        // PropertyAliases.txt, long and short, with and without underscores).
        String[] binary = ("ALPHABETIC ALPHA ASSIGNED CONTROL CNTRL EMOJI EMOJI_PRESENTATION EMOJI_MODIFIER EMOJI_MODIFIER_BASE "
                + "EMOJI_COMPONENT EXTENDED_PICTOGRAPHIC EXTPICT EPRES EMOD EBASE ECOMP HEXDIGIT HEX_DIGIT HEX ASCII_HEX_DIGIT AHEX "
                + "IDEOGRAPHIC IDEO JOINCONTROL JOIN_CONTROL JOIN_C LETTER LOWERCASE LOWER TITLECASE PUNCTUATION UPPERCASE UPPER "
                + "WHITESPACE WHITE_SPACE WSPACE SPACE WORD ALNUM BLANK GRAPH PRINT NONCHARACTERCODEPOINT NONCHARACTER_CODE_POINT "
                + "NCHAR DASH DIACRITIC EXTENDER MATH QUOTATIONMARK QUOTATION_MARK RADICAL DEPRECATED CASED CASE_IGNORABLE "
                + "DEFAULT_IGNORABLE_CODE_POINT ID_START ID_CONTINUE XID_START XID_CONTINUE ANY DIGIT").split(" ");
        TreeSet<String> upperCandidates = new TreeSet<>();
        for (String b : binary) { upperCandidates.add(b); upperCandidates.add(b.replace("_", "")); }
        for (String c : candidates) upperCandidates.add(c.toUpperCase(Locale.ROOT));
        TreeSet<String> isUpper = new TreeSet<>();
        for (String f : upperCandidates) {
            // forUnicodeProperty upper-cases the name: "Is" + a spelling no verbatim name has (first
            // letter lower-cased, the rest upper-cased) compiles only through it, or as a script.
            if (compiles("\\p{Is" + lowerFirst(f) + "}") && !isScript(f)) isUpper.add(f);
        }

        // Scripts and blocks: the JDK's own lookup maps.
        Field aliasesF = Character.UnicodeScript.class.getDeclaredField("aliases");
        aliasesF.setAccessible(true);
        @SuppressWarnings("unchecked") Map<String, Character.UnicodeScript> aliases = (Map<String, Character.UnicodeScript>) aliasesF.get(null);
        TreeMap<String, String> scriptOf = new TreeMap<>();
        for (Character.UnicodeScript s : Character.UnicodeScript.values()) scriptOf.put(s.name(), s.name());
        for (Map.Entry<String, Character.UnicodeScript> e : aliases.entrySet()) scriptOf.put(e.getKey(), e.getValue().name());
        Field mapF = Character.UnicodeBlock.class.getDeclaredField("map");
        mapF.setAccessible(true);
        @SuppressWarnings("unchecked") Map<String, Character.UnicodeBlock> blocks = (Map<String, Character.UnicodeBlock>) mapF.get(null);
        TreeMap<String, String> blockOf = new TreeMap<>();
        for (Map.Entry<String, Character.UnicodeBlock> e : blocks.entrySet()) blockOf.put(e.getKey(), e.getValue().toString());

        // Sets, read back through Pattern.
        TreeMap<String, int[]> exactSet = new TreeMap<>();
        for (String n : exact) exactSet.put(n, new int[] {set("\\p{" + n + "}", 0), set("\\p{" + n + "}", Pattern.CASE_INSENSITIVE)});
        TreeMap<String, int[]> isUpperSet = new TreeMap<>();
        for (String n : isUpper) isUpperSet.put(n, new int[] {set("\\p{Is" + lowerFirst(n) + "}", 0), set("\\p{Is" + lowerFirst(n) + "}", Pattern.CASE_INSENSITIVE)});
        TreeMap<String, Integer> scriptSet = new TreeMap<>();
        for (Character.UnicodeScript s : Character.UnicodeScript.values()) scriptSet.put(s.name(), set("\\p{sc=" + s.name() + "}", Pattern.CASE_INSENSITIVE));
        TreeMap<String, Integer> blockSet = new TreeMap<>();
        for (String canonical : new TreeSet<>(blockOf.values())) blockSet.put(canonical, set("\\p{blk=" + canonical + "}", Pattern.CASE_INSENSITIVE));

        out.append("\"exact\":").append(list(exact)).append(",\n");
        out.append("\"isUpper\":").append(list(isUpper)).append(",\n");
        out.append("\"scriptOf\":").append(map(scriptOf)).append(",\n");
        out.append("\"blockOf\":").append(map(blockOf)).append(",\n");
        out.append("\"exactSet\":").append(pairs(exactSet)).append(",\n");
        out.append("\"isUpperSet\":").append(pairs(isUpperSet)).append(",\n");
        out.append("\"scriptSet\":").append(ints(scriptSet)).append(",\n");
        out.append("\"blockSet\":").append(ints(blockSet)).append(",\n");
        out.append("\"sets\":").append(list(sets)).append(",\n");
        out.append("\"names\":").append(q(names())).append("\n}\n");
        System.out.print(out);
    }

    static String lowerFirst(String s) {
        return s.substring(0, 1).toLowerCase(Locale.ROOT) + s.substring(1);
    }

    static boolean isScript(String name) {
        try { Character.UnicodeScript.forName(name); return true; } catch (IllegalArgumentException e) { return false; }
    }

    static boolean compiles(String p) {
        try { Pattern.compile(p); return true; } catch (Exception e) { return false; }
    }

    /** The code points \p{...} matches with these flags: find() over a text holding every code point once. */
    static int set(String pattern, int flags) {
        Pattern p = Pattern.compile(pattern, flags);
        boolean[] in = new boolean[0x110000];
        StringBuilder text = new StringBuilder(0x220000);
        for (int cp = 0; cp <= 0x10FFFF; cp++) if (cp < 0xD800 || cp > 0xDFFF) text.appendCodePoint(cp);
        Matcher m = p.matcher(text);
        while (m.find()) in[text.codePointAt(m.start())] = true;
        // Lone surrogates one at a time (side by side, a high and a low one would form a pair).
        for (int cp = 0xD800; cp <= 0xDFFF; cp++) in[cp] = p.matcher(String.valueOf((char) cp)).matches();
        StringBuilder ranges = new StringBuilder();
        for (int cp = 0; cp <= 0x10FFFF; cp++) {
            if (!in[cp]) continue;
            int hi = cp;
            while (hi + 1 <= 0x10FFFF && in[hi + 1]) hi++;
            if (ranges.length() > 0) ranges.append(',');
            ranges.append(Integer.toHexString(cp));
            if (hi != cp) ranges.append('-').append(Integer.toHexString(hi));
            cp = hi;
        }
        String r = ranges.toString();
        Integer i = setIndex.get(r);
        if (i == null) { i = sets.size(); sets.add(r); setIndex.put(r, i); }
        return i;
    }

    /** Character names that are not "<block> <hex>" (those are rebuilt from the block table). */
    static String names() {
        StringBuilder b = new StringBuilder();
        for (int cp = 0; cp <= 0x10FFFF; cp++) {
            String n = Character.getName(cp);
            if (n == null) continue;
            Character.UnicodeBlock blk = Character.UnicodeBlock.of(cp);
            String algorithmic = blk == null ? null : blk.toString().replace('_', ' ') + " " + Integer.toHexString(cp).toUpperCase(Locale.ROOT);
            if (n.equals(algorithmic)) continue;
            b.append(Integer.toHexString(cp)).append(' ').append(n).append('\n');
        }
        return b.toString();
    }

    static String q(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            if (c == '"' || c == '\\') b.append('\\').append(c);
            else if (c == '\n') b.append("\\n");
            else if (c < 0x20 || c > 0x7e) b.append(String.format("\\u%04x", (int) c));
            else b.append(c);
        }
        return b.append('"').toString();
    }
    static String list(Collection<String> xs) { StringJoiner j = new StringJoiner(",", "[", "]"); for (String x : xs) j.add(q(x)); return j.toString(); }
    static String map(Map<String, String> m) { StringJoiner j = new StringJoiner(",", "{", "}"); m.forEach((k, v) -> j.add(q(k) + ":" + q(v))); return j.toString(); }
    static String ints(Map<String, Integer> m) { StringJoiner j = new StringJoiner(",", "{", "}"); m.forEach((k, v) -> j.add(q(k) + ":" + v)); return j.toString(); }
    static String pairs(Map<String, int[]> m) { StringJoiner j = new StringJoiner(",", "{", "}"); m.forEach((k, v) -> j.add(q(k) + ":[" + v[0] + "," + v[1] + "]")); return j.toString(); }
}
