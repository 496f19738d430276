import { CommentNode, FunctionNode, SimpleBlockNode, TokenNode, WhitespaceNode, type ComponentValue } from '@csstools/css-parser-algorithms';
import { mirrorVariantType, TokenType, type CSSToken } from '@csstools/css-tokenizer';

/**
 * CSS Syntax's "parse a list of component values", in one pass over the
 * tokens, into @csstools' nodes. css-parser-algorithms' own copies the rest
 * of the token list at every value (`tokens.slice(i)`): 20 KB of CSS took
 * 0.25 s, and 200 KB had not finished after 4 minutes of CPU.
 * The algorithm is the specification's: a block runs to its mirror token
 * or the end, a function to `)` or the end; whitespace in a run is one node.
 */
export function componentValues(tokens: readonly CSSToken[]): ComponentValue[] {
  let at = 0;
  const consume = (until: TokenType | undefined): { values: ComponentValue[]; end: CSSToken } => {
    const values: ComponentValue[] = [];
    for (;;) {
      const token = tokens[at];
      if (token === undefined || token[0] === TokenType.EOF) return { values, end: token ?? [TokenType.EOF, '', -1, -1, undefined] };
      at += 1;
      if (token[0] === until) return { values, end: token };
      if (token[0] === TokenType.OpenParen || token[0] === TokenType.OpenSquare || token[0] === TokenType.OpenCurly) {
        const inner = consume(mirrorVariantType(token[0])!);
        values.push(new SimpleBlockNode(token, inner.end, inner.values));
      } else if (token[0] === TokenType.Function) {
        const inner = consume(TokenType.CloseParen);
        values.push(new FunctionNode(token, inner.end, inner.values));
      } else if (token[0] === TokenType.Whitespace) {
        const run: CSSToken[] = [token];
        while (tokens[at]?.[0] === TokenType.Whitespace) run.push(tokens[at++]!);
        values.push(new WhitespaceNode(run));
      } else if (token[0] === TokenType.Comment) values.push(new CommentNode(token));
      else values.push(new TokenNode(token));
    }
  };
  return consume(undefined).values;
}
