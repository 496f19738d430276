module.exports = {
  projects: ['webpack', 'shared-config', 'host', 'remote-home', 'remote-about', 'remote-contact', 'server'].map(
    (name) => `<rootDir>/${name}`,
  ),
};
