import { PDFDocument, type PDFFont, rgb, StandardFonts } from "pdf-lib";

/** What a letter says, top to bottom; the renderer only lays it out. */
export type LetterContent = {
  title: string;
  /** Shown as the document's title in PDF readers. */
  subject: string;
  /** Label and value pairs, one per line. */
  facts: [string, string][];
  /** Paragraphs after the facts. */
  paragraphs: string[];
  /** Bulleted items (an offer's conditions), after a heading; none: left out. */
  list?: { heading: string; items: string[] };
  /** The verification block at the foot. */
  footer: string[];
  issuedAt: Date;
};

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 56;
const WIDTH = A4[0] - 2 * MARGIN;

/**
 * The standard fonts encode WinAnsi only (no font file to embed, so letters stay small); any
 * other character (a name in another script) is written as "?" rather than failing the letter.
 */
function printable(font: PDFFont, text: string): string {
  let out = "";
  for (const char of text.normalize("NFC")) {
    try {
      font.encodeText(char);
      out += char;
    } catch {
      out += "?";
    }
  }
  return out;
}

function wrap(font: PDFFont, size: number, text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const next = line ? `${line} ${word}` : word;
    if (line && font.widthOfTextAtSize(next, size) > width) {
      lines.push(line);
      line = word;
    } else {
      line = next;
    }
  }
  if (line) lines.push(line);
  return lines;
}

/** One A4 letter (more pages when the text runs over). */
export async function renderLetter(content: LetterContent): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  pdf.setTitle(printable(regular, content.subject));
  pdf.setProducer("Admissions");
  pdf.setCreator("Admissions");
  pdf.setCreationDate(content.issuedAt);
  pdf.setModificationDate(content.issuedAt);
  let page = pdf.addPage(A4);
  let y = A4[1] - MARGIN;
  const write = (text: string, font: PDFFont, size: number, indent = 0) => {
    for (const line of wrap(font, size, printable(font, text), WIDTH - indent)) {
      if (y < MARGIN + size) {
        page = pdf.addPage(A4);
        y = A4[1] - MARGIN;
      }
      page.drawText(line, { x: MARGIN + indent, y, size, font, color: rgb(0, 0, 0) });
      y -= size * 1.4;
    }
  };
  write(content.title, bold, 18);
  y -= 8;
  for (const [label, value] of content.facts) write(`${label}: ${value}`, regular, 11);
  y -= 8;
  for (const paragraph of content.paragraphs) {
    write(paragraph, regular, 11);
    y -= 6;
  }
  if (content.list && content.list.items.length > 0) {
    write(content.list.heading, bold, 12);
    for (const item of content.list.items) write(`- ${item}`, regular, 11, 12);
    y -= 6;
  }
  y -= 12;
  for (const line of content.footer) write(line, regular, 8);
  return pdf.save();
}
