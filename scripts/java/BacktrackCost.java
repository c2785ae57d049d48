import java.util.regex.*;
// Measures the worst case of the backtracking shapes the lint weighs (docs/regex.md, "Lint policy"):
// a reply that almost matches, at the USSD (182) and concatenated-SMS (1,530) lengths.
//   java scripts/java/BacktrackCost.java
public class BacktrackCost {
  static void m(String label, String p, String s) {
    Pattern pat = Pattern.compile(p, Pattern.CASE_INSENSITIVE);
    for (int w = 0; w < 2; w++) pat.matcher(s).matches();
    long t = System.nanoTime(); boolean r = pat.matcher(s).matches(); long ns = System.nanoTime() - t;
    System.out.printf("%-60s len=%5d match=%b %10.2f ms%n", label, s.length(), r, ns / 1e6);
  }
  public static void main(String[] a) {
    for (int len : new int[] {182, 1530}) {
      String digits = "1".repeat(len - 1) + "!";
      m("degree 2: \\d+\\d+x", "\\d+\\d+x", digits);
      m("degree 3: \\d+\\d+\\d+x", "\\d+\\d+\\d+x", digits);
      if (len == 182) m("degree 4: \\d+\\d+\\d+\\d+x", "\\d+\\d+\\d+\\d+x", digits);
      String air = "airtime of UGX" + "1".repeat(len - 14 - 1) + "!";
      m(".*airtime of UGX\\s?(?<amount>[\\d,]+).*successful.*", ".*airtime of UGX\\s?(?<amount>[\\d,]+).*successful.*", air);
      String rep = "airtime of UGX1 ".repeat(len / 16);
      m("  same, reply = 'airtime of UGX1 ' repeated", ".*airtime of UGX\\s?(?<amount>[\\d,]+).*successful.*", rep);
      m("(?<balance>[\\d,.]+).*  (rest-of-message idiom)", "(?<balance>[\\d,.]+).*", "1".repeat(len - 1) + "\n");
    }
  }
}
