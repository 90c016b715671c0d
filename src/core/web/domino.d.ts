// Types for @mixmark-io/domino, the server-side DOM the web tools parse pages with. The package's
// own index.d.ts declares a module named 'domino' in terms of the DOM lib, which tsconfig leaves
// out, so this declares the structural subset Peon uses; import the types from the package name.
declare module '@mixmark-io/domino' {
  /** What elements and documents share: CSS-selector queries and text. */
  export interface DominoParentNode {
    readonly textContent: string | null;
    /** The first match in document order. Domino returns `undefined` (not `null`) when nothing matches. */
    querySelector(selectors: string): DominoElement | null | undefined;
    /** Every match in document order (a static list). Throws on an invalid selector. */
    querySelectorAll(selectors: string): ArrayLike<DominoElement>;
  }

  /** Any node of the tree (what moving children around needs). */
  export interface DominoNode {
    readonly nodeName: string;
  }

  /** A parsed element. */
  export interface DominoElement extends DominoParentNode, DominoNode {
    /** Upper case for HTML elements: `'A'`, `'DIV'`. */
    readonly tagName: string;
    /** Lower case for HTML elements: `'a'`, `'div'`. */
    readonly localName: string;
    readonly classList: { contains(token: string): boolean };
    readonly parentElement: DominoElement | null;
    readonly firstChild: DominoNode | null;
    readonly firstElementChild: DominoElement | null;
    readonly nextElementSibling: DominoElement | null;
    readonly ownerDocument: DominoDocument;
    getAttribute(name: string): string | null;
    setAttribute(name: string, value: string): void;
    removeAttribute(name: string): void;
    appendChild(node: DominoNode): DominoNode;
    replaceWith(node: DominoNode): void;
    remove(): void;
  }

  /** A parsed document. */
  export interface DominoDocument extends DominoParentNode {
    readonly documentElement: DominoElement | null;
    readonly body: DominoElement | null;
    readonly title: string;
    createElement(tagName: string): DominoElement;
  }

  /** Parses HTML the way a browser does (the HTML5 algorithm: any input gives a document). `force` parses even `''`. */
  export function createDocument(html?: string, force?: boolean): DominoDocument;
}
