// Mantine's PostCSS preset gives CSS modules its mixins (`@mixin smaller-than ...`) and rem();
// the breakpoint variables are Mantine's defaults, for use inside those mixins.
export default {
  plugins: {
    'postcss-preset-mantine': {},
    'postcss-simple-vars': {
      variables: {
        'mantine-breakpoint-xs': '36em',
        'mantine-breakpoint-sm': '48em',
        'mantine-breakpoint-md': '62em',
        'mantine-breakpoint-lg': '75em',
        'mantine-breakpoint-xl': '88em',
      },
    },
  },
};
